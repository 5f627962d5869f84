import Foundation
import Testing
@testable import HereWeatherCore

/// `scripts/catalogue check`, which the test run (and so CI) fails on: the catalogues in po/
/// against the template, their placeholders against English, CLDR's plural forms, the template's
/// keys against the code, and the generated tables against what the catalogues make now. Each
/// fault is made on a copy of po/ and the generated tables, and must be named.
@Suite struct CatalogueCheckTests {
    /// A copy of po/ and Sources/HereWeatherCore/Language/Generated in a temporary folder.
    struct Copy {
        let folder: URL
        var po: URL { folder.appendingPathComponent("po") }
        var generated: URL { folder.appendingPathComponent("Generated") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("po"), to: po)
            try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("Sources/HereWeatherCore/Language/Generated"),
                                             to: generated)
        }

        func edit(_ file: String, _ change: (String) -> String) throws {
            let url = po.appendingPathComponent(file)
            try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
        }

        func run(_ command: String) async throws -> CapturedRun {
            try await CapturedRun.run(Fixtures.root.path + "/scripts/catalogue", [command], environment: [
                "PATH": "/usr/bin:/bin", "CATALOGUE_PO_DIR": po.path, "CATALOGUE_GENERATED": generated.path,
            ])
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// The entry of `key` in a catalogue's text, with its translation replaced by `msgstr` lines.
    static func replacing(_ key: String, in text: String, with msgstr: String) -> String {
        var blocks = text.components(separatedBy: "\n\n")
        for index in blocks.indices where blocks[index].contains("msgctxt \"\(key)\"\n") {
            let kept = blocks[index].split(separator: "\n").filter { !$0.hasPrefix("msgstr") }
            blocks[index] = (kept.map(String.init) + [msgstr]).joined(separator: "\n")
        }
        return blocks.joined(separator: "\n\n")
    }

    @Test func theRepositorysCataloguesPass() async throws {
        let run = try await CapturedRun.run(Fixtures.root.path + "/scripts/catalogue", ["check"],
                                            environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.text)")
        #expect(run.text.contains("all complete, tables up to date"))
    }

    /// A fault a catalogue can have: the file it is made in, how, and the line that names it.
    enum Fault: String, CaseIterable, Sendable {
        case missingKey, unusedKey, placeholderTooFew, placeholderOfAnotherType, placeholdersInAnotherOrder
        case numberedAndUnnumberedMixed, pluralFormMissing, untranslated, fuzzy, anotherPluralRule, spaceLost
        case englishChanged

        var file: String {
            switch self {
            case .numberedAndUnnumberedMixed, .pluralFormMissing, .untranslated, .fuzzy: return "fr.po"
            default: return "de.po"
            }
        }

        func make(_ text: String) -> String {
            switch self {
            case .missingKey:
                return text.components(separatedBy: "\n\n").filter { !$0.contains("msgctxt \"wind.from\"") }.joined(separator: "\n\n")
            case .unusedKey:
                return text + "\n#. Gone.\nmsgctxt \"wind.towards\"\nmsgid \"%s towards %s\"\nmsgstr \"%s nach %s\"\n"
            case .placeholderTooFew: return replacing("report.wind-gusts", in: text, with: "msgstr \"Wind %s, Böen\"")
            case .placeholderOfAnotherType: return replacing("report.wind", in: text, with: "msgstr \"Wind %d\"")
            case .placeholdersInAnotherOrder:
                return replacing("alerts.more", in: text, with: "msgstr[0] \"%s +%d\"\nmsgstr[1] \"%2$s +%1$d\"")
            case .numberedAndUnnumberedMixed: return replacing("wind.from", in: text, with: "msgstr \"%2$s de %s\"")
            case .pluralFormMissing: return replacing("table.next-days", in: text, with: "msgstr[0] \"%d prochains jours\"")
            case .untranslated: return replacing("column.sky", in: text, with: "msgstr \"\"")
            case .fuzzy: return text.replacingOccurrences(of: "msgctxt \"column.wind\"", with: "#, fuzzy\nmsgctxt \"column.wind\"")
            case .anotherPluralRule: return text.replacingOccurrences(of: "plural=(n==1 ? 0 : 1);", with: "plural=(n>1);")
            case .spaceLost: return replacing("alert.label", in: text, with: "msgstr \"Warnung:\"")
            case .englishChanged:
                return text.replacingOccurrences(of: "msgid \"Humidity %s\"", with: "msgid \"Relative humidity %s\"")
            }
        }

        var expected: String {
            switch self {
            case .missingKey: return "misses wind.from"
            case .unusedKey: return "wind.towards is not in po/here-weather.pot (an unused key)"
            case .placeholderTooFew: return "report.wind-gusts: placeholders %1$s, English has %1$s, %2$s"
            case .placeholderOfAnotherType: return "report.wind: placeholders %1$d, English has %1$s"
            case .placeholdersInAnotherOrder: return "alerts.more form 0 (one): placeholders %1$s, %2$d, English has %1$d, %2$s"
            case .numberedAndUnnumberedMixed: return "wind.from: numbered (%1$s) and unnumbered (%s) placeholders mixed"
            case .pluralFormMissing: return "table.next-days: 1 translation(s), 2 expected (one, other)"
            case .untranslated: return "column.sky: not translated"
            case .fuzzy: return "column.wind: marked fuzzy"
            case .anotherPluralRule: return "the header's Plural-Forms is 'nplurals=2; plural=(n>1);'"
            case .spaceLost: return "alert.label: leading or trailing spaces differ from English"
            case .englishChanged: return "the English changed, check the translation"
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aBrokenCatalogueFailsTheCheck(_ fault: Fault) async throws {
        let copy = try Copy()
        defer { copy.remove() }
        try copy.edit(fault.file, fault.make)
        let run = try await copy.run("check")
        #expect(run.status == 1, "\(fault): \(run.text)")
        #expect(run.text.contains(fault.expected), "\(fault): \(run.text)")
    }

    /// Chinese and Japanese put no space after a full-width comma: "、" stands for English's
    /// ", " (the check once forced "、 "); a Latin comma still needs its space.
    @Test func aFullWidthMarkMayEndWithoutEnglishsSpace() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        try copy.edit("ja.po") { Self.replacing("list-separator", in: $0, with: "msgstr \"、\"") }
        try copy.edit("de.po") { Self.replacing("list-separator", in: $0, with: "msgstr \",\"") }
        #expect(try await copy.run("generate").status == 0)
        let run = try await copy.run("check")
        #expect(!run.text.contains("ja.po"), "\(run.text)")
        #expect(run.text.contains("po/de.po:") && run.text.contains("list-separator: leading or trailing spaces differ from English"),
                "\(run.text)")
    }

    @Test func tablesNotGeneratedFromTheCataloguesFailTheCheck() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        try copy.edit("de.po") { Self.replacing("column.sky", in: $0, with: "msgstr \"Himmel\"") }
        let stale = try await copy.run("check")
        #expect(stale.status == 1 && stale.text.contains("Catalogue-de.swift is not what the catalogues make now"), "\(stale.text)")
        #expect(try await copy.run("generate").status == 0)
        let fresh = try await copy.run("check")
        #expect(fresh.status == 0, "\(fresh.text)")
        let generated = try String(contentsOf: copy.generated.appendingPathComponent("Catalogue-de.swift"), encoding: .utf8)
        #expect(generated.contains("\n        Himmel\n"))
    }

    @Test func aTemplateKeyTheCodeDoesNotUseFailsTheCheck() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        try copy.edit("here-weather.pot") { $0 + "\n#. Nowhere.\nmsgctxt \"report.never-shown\"\nmsgid \"Never\"\nmsgstr \"\"\n" }
        let run = try await copy.run("check")
        #expect(run.text.contains("report.never-shown (.reportNeverShown) is used nowhere in Sources/"), "\(run.text)")
    }

    /// A new catalogue starts from the template with CLDR's plural forms; a form may leave the
    /// count out only where it stands for one number (and zero): never Russian "one" (1, 21, 31).
    @Test func aNewCatalogueHasCLDRsPluralFormsAndKeepsItsCounts() async throws {
        let copy = try Copy()
        defer { copy.remove() }
        #expect(try await copy.run("new").status == 64, "new needs a code")
        let start = {
            try await CapturedRun.run(Fixtures.root.path + "/scripts/catalogue", ["new", "ru"], environment: [
                "PATH": "/usr/bin:/bin", "CATALOGUE_PO_DIR": copy.po.path, "CATALOGUE_GENERATED": copy.generated.path,
            ])
        }
        let existing = try await start()
        #expect(existing.status != 0 && existing.text.contains("ru.po exists: update it with msgmerge"), "\(existing.text)")
        try FileManager.default.removeItem(at: copy.po.appendingPathComponent("ru.po"))
        let started = try await start()
        #expect(started.status == 0, "\(started.text)")
        var text = try String(contentsOf: copy.po.appendingPathComponent("ru.po"), encoding: .utf8)
        #expect(text.contains("Plural-Forms: nplurals=3; plural=((n%10==1 && !(n%100==11)) ? 0 : "), "\(text.prefix(800))")
        // Fill it with the English, every plural form with the plural's text: a complete catalogue.
        var blocks = text.components(separatedBy: "\n\n")
        for index in blocks.indices.dropFirst() {
            let lines = blocks[index].split(separator: "\n").map(String.init)
            let id = lines.first { $0.hasPrefix("msgid ") }.map { String($0.dropFirst(6)) } ?? "\"\""
            let plural = lines.first { $0.hasPrefix("msgid_plural ") }.map { String($0.dropFirst(13)) }
            let kept = lines.filter { !$0.hasPrefix("msgstr") }
            let forms = plural.map { p in (0..<3).map { "msgstr[\($0)] \(p)" } } ?? ["msgstr \(id)"]
            blocks[index] = (kept + forms).joined(separator: "\n")
        }
        text = blocks.joined(separator: "\n\n")
        try text.write(to: copy.po.appendingPathComponent("ru.po"), atomically: true, encoding: .utf8)
        #expect(!(try await copy.run("check")).text.contains("ru.po"), "a complete catalogue has no problem")
        try copy.edit("ru.po") { Self.replacing("table.next-days", in: $0, with: "msgstr[0] \"Завтра\"\nmsgstr[1] \"%d дня\"\nmsgstr[2] \"%d дней\"") }
        let run = try await copy.run("check")
        #expect(run.text.contains("po/ru.po"), "\(run.text)")
        #expect(run.text.contains("table.next-days form 0 (one): placeholders none, English has %1$d"), "\(run.text)")
    }
}
