/// One table of a TOML document while it is read, with the rules of TOML 1.0 about what may
/// still be added to it: a table is defined once, by a `[header]` or by dotted keys, and
/// inline tables and arrays are finished values that nothing can extend.
final class TOMLTableBuilder {
    /// How the table came to exist.
    enum Origin: Equatable {
        /// Named on the way to another table (`a` in `[a.b]`): may still get its own header.
        case implicit
        /// Defined by a `[header]` or `[[header]]` (or the document's root).
        case header
        /// Defined by dotted keys (`a.b = 1`) in section `section`, which alone may extend it.
        case dotted(section: Int)
    }

    private enum Entry {
        case value(ConfigNode)
        case table(TOMLTableBuilder)
        case arrayOfTables([TOMLTableBuilder])
    }

    private(set) var origin: Origin
    private var keys: [String] = []
    private var entries: [String: Entry] = [:]
    /// Where each key was first written.
    private var positions: [String: TOMLPosition] = [:]

    init(origin: Origin) { self.origin = origin }

    /// The finished table, keys in the order they first appeared.
    var node: ConfigNode {
        .table(keys.map { key in
            let value: ConfigNode
            switch entries[key] {
            case .value(let node)?: value = node
            case .table(let table)?: value = table.node
            case .arrayOfTables(let tables)?: value = .array(tables.map(\.node))
            case nil: value = .table([])
            }
            return ConfigMember(key: key, value: value, position: positions[key] ?? TOMLPosition(line: 1, column: 1))
        })
    }

    /// Sets `key` (dotted: each part but the last names a table) to `value`, reading section
    /// `section`; `positions` says where each part is written.
    func assign(_ key: [String], _ value: ConfigNode, section: Int, at positions: [TOMLPosition]) throws(TOMLRuleError) {
        var table = self
        for (name, position) in zip(key.dropLast(), positions) {
            switch table.entries[name] {
            case nil:
                table = table.add(name, origin: .dotted(section: section), at: position)
            case .table(let child)?:
                switch child.origin {
                case .implicit: child.origin = .dotted(section: section)
                case .dotted(section) : break
                case .header, .dotted: throw TOMLRuleError("the table \(name) is defined elsewhere; add keys to it under its own header")
                }
                table = child
            case .arrayOfTables?:
                throw TOMLRuleError("\(name) is an array of tables; add keys to it under [[\(name)]]")
            case .value?:
                throw TOMLRuleError("\(name) is already set to a value, so it cannot hold keys")
            }
        }
        let last = key[key.count - 1]
        guard table.entries[last] == nil else { throw TOMLRuleError("the key \(last) is set twice") }
        table.keys.append(last)
        table.entries[last] = .value(value)
        table.positions[last] = positions.last
    }

    /// The table a `[path]` header opens; `positions` says where each part is written.
    func openTable(_ path: [String], at positions: [TOMLPosition]) throws(TOMLRuleError) -> TOMLTableBuilder {
        let parent = try walk(path.dropLast(), at: positions)
        let last = path[path.count - 1]
        switch parent.entries[last] {
        case nil:
            return parent.add(last, origin: .header, at: positions.last)
        case .table(let table)? where table.origin == .implicit:
            table.origin = .header
            return table
        case .table?:
            throw TOMLRuleError("the table \(last) is defined twice")
        case .arrayOfTables?:
            throw TOMLRuleError("\(last) is an array of tables; use [[\(last)]] to add one")
        case .value?:
            throw TOMLRuleError("\(last) is already set to a value, so it cannot be a table")
        }
    }

    /// The new table a `[[path]]` header appends to an array of tables.
    func appendTable(_ path: [String], at positions: [TOMLPosition]) throws(TOMLRuleError) -> TOMLTableBuilder {
        let parent = try walk(path.dropLast(), at: positions)
        let last = path[path.count - 1]
        let table = TOMLTableBuilder(origin: .header)
        switch parent.entries[last] {
        case nil:
            parent.keys.append(last)
            parent.entries[last] = .arrayOfTables([table])
            parent.positions[last] = positions.last
        case .arrayOfTables(let tables)?:
            parent.entries[last] = .arrayOfTables(tables + [table])
        case .table?, .value?:
            throw TOMLRuleError("\(last) is already defined and is not an array of tables")
        }
        return table
    }

    /// The table a header's leading names lead to, creating implicit ones; an array of tables
    /// leads to its last table.
    private func walk(_ path: ArraySlice<String>, at positions: [TOMLPosition]) throws(TOMLRuleError) -> TOMLTableBuilder {
        var table = self
        for (name, position) in zip(path, positions) {
            switch table.entries[name] {
            case nil: table = table.add(name, origin: .implicit, at: position)
            case .table(let child)?: table = child
            case .arrayOfTables(let tables)?: table = tables[tables.count - 1]
            case .value?: throw TOMLRuleError("\(name) is already set to a value, so it cannot hold a table")
            }
        }
        return table
    }

    private func add(_ name: String, origin: Origin, at position: TOMLPosition?) -> TOMLTableBuilder {
        let table = TOMLTableBuilder(origin: origin)
        keys.append(name)
        entries[name] = .table(table)
        positions[name] = position
        return table
    }
}

/// A rule of TOML broken by a key or header; the parser adds where.
struct TOMLRuleError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
