import Foundation
import Testing
@testable import HereWeatherCore

/// `scripts/gallery`: every report the recordings in Fixtures/ can replay, run through the
/// release binary in one locale or language. English in the C locale is what it was before
/// here-weather spoke other languages, byte for byte: `Fixtures/language/gallery-*.txt` were
/// written by the binary of that time, and every section they hold must come out the same.
@Suite struct LanguageGalleryTests {
    /// The gallery's sections ("=== what" and the lines under it), by header.
    static func sections(_ text: String) -> [(header: String, body: String)] {
        var found: [(header: String, body: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
            if line.hasPrefix("=== ") {
                found.append((String(line), ""))
            } else if !found.isEmpty {
                found[found.count - 1].body += line + "\n"
            }
        }
        return found
    }

    /// The gallery for `arguments` (`--locale C`, `--lang de`), from the release binary.
    static func gallery(_ arguments: [String]) async throws -> String {
        let run = try await CapturedRun.run(Fixtures.root.path + "/scripts/gallery",
                                            ["--binary", CommandRunner.executable.path] + arguments,
                                            environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.text)")
        return run.text
    }

    /// The gallery's runs: English in the C locales (against the recordings of the binary from
    /// before), German as a session's LANG chooses it and in a Latin-1 locale, and every
    /// catalogue through --lang. One test for all: each run is one process of the gallery.
    static let runs: [[String]] = [["--locale", "C"], ["--locale", "C.UTF-8"], ["--locale", "de_DE.UTF-8"],
                                   ["--locale", "de_DE.ISO-8859-1"]]
        + LanguageData.all.map(\.code).filter { $0 != "en" }.map { ["--lang", $0] }

    /// The language a gallery run speaks.
    static func language(_ arguments: [String]) -> String {
        arguments[0] == "--lang" ? arguments[1] : (try? LanguageChoice.resolve(environment: ["LANG": arguments[1]]))?.locale.code ?? "en"
    }

    /// Every run: no failed case; tables and charts aligned by display width; on a terminal of
    /// 40, 60 and 80 columns no line wider and no word cut. In the C locales, English byte for
    /// byte as before languages (every section of `Fixtures/language/gallery-*.txt`); in another
    /// language no English word in any report, format, status-bar line or `where` (what services
    /// wrote aside); in a locale that is not UTF-8, ASCII only.
    /// One run at a time (`.serialized`): each runs the binary a few hundred times, and 24 side by
    /// side held both cores of a 2-core machine for 45 s, so that the rest of the suite's local
    /// servers did not answer in time (a full run failed so).
    @Test(.serialized, arguments: runs)
    func eachGalleryRun(_ arguments: [String]) async throws {
        let code = Self.language(arguments)
        let locale = UserLocale(language: code)
        let text = try await Self.gallery(arguments)
        let sections = Self.sections(text)
        #expect(sections.count > 60)
        if arguments == ["--locale", "C"] || arguments == ["--locale", "C.UTF-8"] {
            let recorded = Self.sections(String(decoding: Fixtures.data("language/gallery-\(arguments[1]).txt"), as: UTF8.self))
            #expect(recorded.count > 60)
            let now = Dictionary(sections.map { ($0.header, $0.body) }, uniquingKeysWith: { first, _ in first })
            for section in recorded {
                let body = try #require(now[section.header], "the gallery has no section \(section.header)")
                #expect(body == section.body, "\(section.header) changed:\n\(body)")
            }
        }
        if arguments[1].hasSuffix("ISO-8859-1") {
            let strays = text.unicodeScalars.filter { !$0.isASCII }
            #expect(strays.isEmpty, "not ASCII: \(String(String.UnicodeScalarView(strays.prefix(20))))")
            #expect(text.contains("Wolkig") && text.contains("Luftfeuchte 65 %"), "German, folded: \(text.prefix(600))")
        }
        if arguments[0] == "--lang" || arguments[1].hasSuffix("UTF-8") {
            // Nothing folded to ASCII in a UTF-8 locale, ASCII icons included ("??" for kanji).
            #expect(!text.contains("??"), "folded: \(text.split(separator: "\n").filter { $0.contains("??") }.prefix(5))")
        }
        let allowed = code == "en" ? [] : EnglishWords.serviceWords(try GalleryRecordings.decoded())
        for section in sections {
            if code != "en" {
                let found = EnglishWords.found(in: Self.words(section), language: code, allowed: allowed)
                #expect(found.isEmpty, "\(arguments) \(section.header): English \(found) in:\n\(section.body)")
            }
            #expect(!section.body.contains("\nexit ") && !section.body.hasPrefix("exit "), "\(section.header) failed:\n\(section.body)")
            let lines = section.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let width = Self.terminalWidth(section.header) {
                for line in lines {
                    #expect(TextWidth.columns(line) <= width, "\(section.header): wider than \(width): \(line)")
                    #expect(!Self.cutMidWord(line), "\(section.header): a word is cut: \(line)")
                }
            }
            for problem in Self.misaligned(lines, locale: locale) {
                Issue.record("\(arguments) \(section.header): \(problem)\n\(section.body)")
            }
        }
    }

    /// What people read of a section: a waybar line's text and tooltip (its class and alt are
    /// codes for CSS, the same in every language); everything else as printed.
    /// The gallery's own mask for a time that changes with each run (`where`'s "Time:") is not
    /// the report's.
    static func words(_ section: (header: String, body: String)) -> String {
        let body = section.body.replacing("YYYY-MM-DDTHH:MM:SSZ", with: "")
        guard section.header.hasSuffix("--waybar") || section.header.hasSuffix("--format and --waybar") else { return body }
        return body.split(separator: "\n").map { line -> String in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return String(line) }
            return [object["text"], object["tooltip"]].compactMap { $0 as? String }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The width of a section drawn on a terminal ("... on a terminal of 40 columns").
    static func terminalWidth(_ header: String) -> Int? {
        guard let range = header.firstRange(of: "on a terminal of ") else { return nil }
        return Int(header[range.upperBound...].prefix { $0.isNumber })
    }

    /// Whether a line ends in an ellipsis right after a letter: a word cut in the middle.
    static func cutMidWord(_ line: String) -> Bool {
        guard line.hasSuffix("…") || line.hasSuffix("...") else { return false }
        let body = line.hasSuffix("…") ? line.dropLast() : line.dropLast(3)
        return body.last?.isLetter == true
    }

    /// Display columns where a table's cells start: at 0, and after two spaces.
    static func cellStarts(_ line: String) -> Set<Int> {
        var starts: Set<Int> = [0]
        var column = 0
        var spaces = 0
        for character in line {
            if character == " " {
                spaces += 1
            } else {
                if spaces >= 2 { starts.insert(column) }
                spaces = 0
            }
            column += TextWidth.columns(String(character))
        }
        return starts
    }

    /// Tables whose rows do not start their cells where the header does, and charts whose bars
    /// do not start under the hours: what measuring characters instead of columns would do.
    static func misaligned(_ lines: [String], locale: UserLocale) -> [String] {
        var problems: [String] = []
        let headers = [locale.text(.columnTime), locale.text(.columnDay)]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            guard let first = line.split(separator: " ").first, headers.contains(String(first)) else {
                index += 1
                continue
            }
            let expected = cellStarts(line)
            index += 1
            while index < lines.count, !lines[index].isEmpty, !lines[index].hasPrefix("=== ") {
                let missing = expected.subtracting(cellStarts(lines[index]))
                if !missing.isEmpty { problems.append("row \"\(lines[index])\" has no cell at columns \(missing.sorted())") }
                index += 1
            }
        }
        // The chart: its hour labels start where its bars do.
        let labels = [locale.text(.chartTemperature), locale.text(.chartPrecipitation)]
        for (offset, line) in lines.enumerated() where offset > 0 && labels.contains(where: { line.hasPrefix($0 + " ") }) {
            let hours = lines[offset - 1]
            guard hours.hasPrefix(" "), !labels.contains(where: { hours.hasPrefix($0 + " ") }) else { continue }
            let hoursStart = TextWidth.columns(String(hours.prefix { $0 == " " }))
            let label = labels.first { line.hasPrefix($0 + " ") } ?? ""
            let barsStart = TextWidth.columns(label) + TextWidth.columns(String(line.dropFirst(label.count).prefix { $0 == " " }))
            if hoursStart != barsStart { problems.append("the chart's bars start at \(barsStart), its hours at \(hoursStart)") }
        }
        return problems
    }

    /// The checks themselves catch what they are for: a table padded by characters instead of
    /// display columns (what double-width words would show), a chart whose bars start off the
    /// hours, a word cut at the edge.
    @Test func theChecksCatchWhatTheyAreFor() {
        let english = UserLocale.english
        let aligned = ["Time   Temp    Sky", "14:00  26.7 C  Clear", "15:00  -       雨雨"]
        #expect(Self.misaligned(aligned, locale: english).isEmpty)
        let byCharacters = ["Time  Sky       Wind", "14:00 雨雨      4.7 m/s"].map { $0.replacingOccurrences(of: "Time  ", with: "Time   ") }
        #expect(!Self.misaligned(byCharacters + ["15:00  雨雨      4.7 m/s"], locale: english).isEmpty)
        let wide = ["Time   天気  Wind", "14:00  雨雨  4.7", "15:00  雨  4.7"]
        #expect(!Self.misaligned(wide, locale: english).isEmpty, "one column of double-width words padded by characters")
        #expect(!Self.misaligned(["         14 15", "Temp      ██ ██"], locale: english).isEmpty)
        #expect(Self.misaligned(["         14 15", "Temp     ██ ██"], locale: english).isEmpty)
        #expect(Self.cutMidWord("Lever du soleil 06:56 · Coucher du sole…"))
        #expect(!Self.cutMidWord("Minor flooding is occurring and is …"))
        #expect(Self.sections("=== a\nx\n=== b\ny\nz\n").map(\.body) == ["x\n", "y\nz\n"])
    }
}
