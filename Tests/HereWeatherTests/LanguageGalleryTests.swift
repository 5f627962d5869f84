import Foundation
import Testing

/// `scripts/gallery`: every report the recordings in Fixtures/ can replay, run through the
/// release binary in one locale or language. English in the C locale is what it was before
/// here-weather spoke other languages, byte for byte: `Fixtures/language/gallery-*.txt` were
/// written by the binary of that time, and every section they hold must come out the same.
@Suite struct LanguageGalleryTests {
    /// The gallery's sections ("=== what" and the lines under it), by header.
    static func sections(_ text: String) -> [(header: String, body: String)] {
        var found: [(header: String, body: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
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

    @Test(arguments: ["C", "C.UTF-8"])
    func englishInTheCLocaleIsUnchanged(_ locale: String) async throws {
        let recorded = Self.sections(String(decoding: Fixtures.data("language/gallery-\(locale).txt"), as: UTF8.self))
        #expect(recorded.count > 60)
        let now = Dictionary(Self.sections(try await Self.gallery(["--locale", locale])).map { ($0.header, $0.body) },
                             uniquingKeysWith: { first, _ in first })
        for section in recorded {
            let body = try #require(now[section.header], "the gallery has no section \(section.header)")
            #expect(body == section.body, "\(section.header) changed:\n\(body)")
        }
    }
}
