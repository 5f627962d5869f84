/// A table of left-aligned columns two spaces apart, laid out to fit a width.
///
/// Widths are terminal columns (`TextWidth`), so a column of emoji lines up. The last
/// column is free text (the sky in words) and is not padded. When the table is wider than
/// `width`: first the columns that have a shorter form use it ("4.9 m/s NNE" for "4.9 m/s
/// from NNE"); then columns with a `dropOrder` are left out, highest first, while the free
/// column would get less than `freeMinimum` columns. A free column that still does not fit
/// takes its shorter form (the sky as a glyph alone) when that fits, else it is left out when
/// it may be (`dropOrder`): words are never cut in the middle while a shorter form or leaving
/// the column out would do. Only a free column that may not be left out is cut ("…").
/// Every line then fits, down to `TerminalWidth.minimum`. With `keepsFreeWhole` (the daily
/// table, whose sky is the forecast's own words) columns are left out while the free column's
/// whole words do not fit, not only while it would get less than `freeMinimum`. Before all
/// that, a column that may be left out and whose every cell is "-" (the NWS gives no feels-like
/// temperature nor amount) is left out at any width.
struct TextTable {
    struct Column {
        var header: String
        var cells: [String]
        /// The same cells in fewer columns, used when the table is too wide.
        var shortCells: [String]?
        /// May be left out on a narrow terminal; the higher, the sooner.
        var dropOrder: Int?

        init(_ header: String, _ cells: [String], short: [String]? = nil, dropOrder: Int? = nil) {
            self.header = header
            self.cells = cells
            self.shortCells = short
            self.dropOrder = dropOrder
        }

        /// The most columns a cell of this column takes, its header included.
        var width: Int { ([header] + cells).map(TextWidth.columns).max() ?? 0 }
    }

    static let gap = "  "
    /// Columns the last column should keep before other columns are left out.
    static let freeMinimum = 16

    var columns: [Column]
    /// What ends a cut cell: "…", or "..." in ASCII.
    var ellipsis = "…"
    /// Leave other columns out until the free column's whole cells fit (see the type's comment).
    var keepsFreeWhole = false

    /// The table's lines, the header first (unstyled).
    func lines(width: Int) -> [String] {
        var shown = columns.enumerated().filter { index, column in
            index == columns.count - 1 || column.dropOrder == nil || column.cells.contains { $0 != "-" }
        }.map(\.element)
        if layoutWidth(shown.dropLast()) + (shown.last?.width ?? 0) > width {
            for index in shown.indices.dropLast() { shown[index].cells = shown[index].shortCells ?? shown[index].cells }
        }
        let freeWanted = keepsFreeWhole ? max(Self.freeMinimum, shown.last?.width ?? 0) : Self.freeMinimum
        while layoutWidth(shown.dropLast()) + freeWanted > width, let drop = Self.nextToDrop(shown) {
            shown.remove(at: drop)
        }
        if var free = shown.last, free.width > width - layoutWidth(shown.dropLast()) {
            if let short = free.shortCells, Column(free.header, short).width <= width - layoutWidth(shown.dropLast()) {
                free.cells = short
                shown[shown.count - 1] = free
            } else if free.dropOrder != nil, shown.count > 1 {
                shown.removeLast()
            }
        }
        guard let free = shown.last else { return [] }
        let fixed = Array(shown.dropLast())
        let widths = fixed.map(\.width)
        let room = max(1, width - layoutWidth(fixed))
        let rowCount = ([free.cells.count] + fixed.map(\.cells.count)).max() ?? 0
        return (-1..<rowCount).map { row in
            let cells = fixed.indices.map { index in
                TextWidth.pad(Self.cell(fixed[index], row), widths[index])
            }
            return (cells + [TextWidth.cut(Self.cell(free, row), room, ellipsis: ellipsis)]).joined(separator: Self.gap).trimmingSuffixSpaces
        }
    }

    /// The columns the fixed (padded) columns and their gaps take, before the free column.
    func layoutWidth(_ fixed: some Collection<Column>) -> Int {
        fixed.reduce(0) { $0 + $1.width + Self.gap.count }
    }

    /// The column to leave out next: the highest `dropOrder`, never the free column.
    static func nextToDrop(_ shown: [Column]) -> Int? {
        shown.indices.dropLast().compactMap { index in shown[index].dropOrder.map { (index, $0) } }
            .max { $0.1 < $1.1 }?.0
    }

    /// Row `row` of `column`; -1 is the header.
    static func cell(_ column: Column, _ row: Int) -> String {
        row < 0 ? column.header : row < column.cells.count ? column.cells[row] : ""
    }
}
