import Foundation
import Testing
@testable import HereWeatherCore

#if canImport(Glibc)
import Glibc
#endif

/// Damaged input: random bytes, truncated lines and single-bit flips must never crash the
/// reader or parser, and never make a valid fix that the undamaged log does not have
/// (a damaged line can only lose information, never invent a position or turn a void
/// sentence valid). Also: the line reader's framing, and constant memory on a long stream.
struct NMEAFuzzTests {
    static let date = NMEADate(year: 2026, month: 11, day: 22)

    /// Each fixture log's lines, or a few real lines (NOAA, see NMEAParserTests) when the
    /// fixtures are not there.
    static let logs: [[[UInt8]]] = {
        let folder = Fixtures.url("nmea")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".nmea") }.sorted()
        var logs = names.map { [UInt8](Fixtures.data("nmea/\($0)")) }
        if logs.isEmpty { logs = [Array(NMEAEpochAssemblerTests.noaa.joined(separator: "\n").utf8)] }
        // Split on CR and LF as bytes: some fixture lines are deliberately not UTF-8.
        return logs.map { $0.split(whereSeparator: { $0 == 10 || $0 == 13 }).map { Array($0) } }
    }()

    static let lines: [[UInt8]] = logs.flatMap { $0 }

    func fixes(_ lines: [[UInt8]]) -> [NMEAFix] {
        var bytes: [UInt8] = []
        for line in lines { bytes += line; bytes.append(UInt8(ascii: "\n")) }
        var stream = NMEAStream(reader: NMEALineReader(bytes: bytes), date: Self.date)
        var result: [NMEAFix] = []
        while let fix = stream.nextFix() { result.append(fix) }
        return result
    }

    /// Milliseconds into the UTC day: a lost RMC may change an epoch's date (the previous
    /// one carries on), never its time of day.
    static func timeOfDay(_ date: Date) -> Int {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        return ((milliseconds % 86_400_000) + 86_400_000) % 86_400_000
    }

    /// Every valid fix of `damaged` is a valid fix of the clean log at the same time and place.
    func expectNoInventedFixes(_ damaged: [NMEAFix], clean: [NMEAFix], _ what: String) {
        var cleanValid: [Int: [Coordinate]] = [:]
        for fix in clean where fix.isValid {
            cleanValid[Self.timeOfDay(fix.time), default: []].append(fix.coordinate ?? Coordinate(latitude: .nan, longitude: .nan))
        }
        for fix in damaged where fix.isValid {
            guard let coordinate = fix.coordinate, let candidates = cleanValid[Self.timeOfDay(fix.time)] else {
                Issue.record("\(what): valid fix at \(fix.time) that the clean log does not have")
                continue
            }
            #expect(candidates.contains { abs($0.latitude - coordinate.latitude) < 1e-9 && abs($0.longitude - coordinate.longitude) < 1e-9 },
                    "\(what): valid fix at \(fix.time) moved to \(coordinate)")
        }
    }

    /// Our own reading of the checksum rule: `*HH` after the last `$` must be the XOR.
    static func checksumMatchesIfPresent(_ line: [UInt8]) -> Bool {
        guard let dollar = line.lastIndex(of: UInt8(ascii: "$")), let star = line.lastIndex(of: UInt8(ascii: "*")), star > dollar else { return true }
        let digits = String(decoding: line[(star + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard digits.count == 2, let value = UInt8(digits, radix: 16) else { return false }
        return line[(dollar + 1)..<star].reduce(0, ^) == value
    }

    @Test func randomBytesNeverCrashOrPassABadChecksum() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("$GPGGARMCLLNSVTZDA*,.0123456789ABCDEFNSEW\r\n".utf8)
        var accepted = 0
        for round in 0..<400 {
            let length = Int.random(in: 0...300, using: &generator)
            let line: [UInt8] = (0..<length).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator) ?? 0
            }
            if let sentence = NMEAParser.parse(line) {
                accepted += 1
                #expect(Self.checksumMatchesIfPresent(line), "accepted \(sentence) from a line with a bad checksum")
            }
            var stream = NMEAStream(reader: NMEALineReader(bytes: line), date: Self.date)
            while stream.nextFix() != nil {}
        }
        #expect(accepted < 400)
    }

    @Test func truncatedLinesInventNoFix() {
        var generator = SeededGenerator(seed: 11)
        for (index, log) in Self.logs.enumerated() {
          let clean = fixes(log)
          for round in 0..<3 {
            let damaged = log.map { line -> [UInt8] in
                // An overlong line is skipped whole; cut short it would be a line like any other.
                guard Int.random(in: 0..<3, using: &generator) == 0, !line.isEmpty,
                      line.count <= NMEAParser.maximumLineLength else { return line }
                return Array(line.prefix(Int.random(in: 0..<line.count, using: &generator)))
            }
            expectNoInventedFixes(fixes(damaged), clean: clean, "log \(index) truncation round \(round)")
          }
        }
    }

    /// Flips one bit in each line that carries a checksum. (A line without one cannot be
    /// checked, by us or by gpsd: a flipped digit there is a wrong number, accepted.)
    @Test func bitFlipsInventNoFix() {
        var generator = SeededGenerator(seed: 13)
        var rejected = 0
        for (index, log) in Self.logs.enumerated() {
          let clean = fixes(log)
          for round in 0..<3 {
            let damaged = log.map { line -> [UInt8] in
                guard line.count > 3, line[line.count - 3] == UInt8(ascii: "*"), Self.checksumMatchesIfPresent(line) else { return line }
                var line = line
                line[Int.random(in: 0..<line.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                if !Self.checksumMatchesIfPresent(line) {
                    rejected += 1
                    #expect(NMEAParser.parse(line) == nil, "a line with a bad checksum was accepted: \(String(decoding: line, as: UTF8.self))")
                }
                return line
            }
            expectNoInventedFixes(fixes(damaged), clean: clean, "log \(index) bit-flip round \(round)")
          }
        }
        #expect(rejected > 0)
    }

    // MARK: - reader

    func readLines(_ text: [UInt8], chunkSize: Int = NMEALineReader.defaultChunkSize) -> ([[UInt8]], NMEALineReader) {
        var reader = NMEALineReader(bytes: text, chunkSize: chunkSize)
        var lines: [[UInt8]] = []
        while let line = reader.withNextLine({ Array($0) }) { lines.append(line) }
        return (lines, reader)
    }

    @Test func lineEndingsOfEveryKind() {
        let (lines, reader) = readLines(Array("a\r\nb\nc\rd\r\r\ne".utf8))
        #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["a", "b", "c", "d", "e"])
        #expect(reader.linesRead == 5 && reader.bytesRead == 12)
    }

    @Test func overlongLinesAreSkippedAndNULsKept() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 5000)
        let text = Array("first\n".utf8) + long + Array("\nse\0cond\r\n".utf8) + long
        // A chunk smaller than the long line, so it is never held whole.
        let (lines, reader) = readLines(text, chunkSize: 2048)
        #expect(lines == [Array("first".utf8), Array("se\0cond".utf8)])
        #expect(reader.overlongLinesSkipped == 2)
        #expect(reader.bufferCapacity < 5000)
    }

    @Test func linesSplitAcrossChunksSurvive() {
        // CR LF split between chunks, and lines straddling every chunk boundary.
        let lines = Self.lines.prefix(400)
        var text: [UInt8] = []
        for line in lines { text += line; text += [13, 10] }
        let (read, _) = readLines(text, chunkSize: 2048)
        #expect(read == lines.filter { $0.count <= NMEAParser.maximumLineLength })
    }

    @Test func longStreamFromAFileInConstantMemory() throws {
        // About 6 MB, a hundred times the reader's 64 KiB chunk: the fixture lines (or the NOAA
        // epochs) repeated, written to a file. (It was 50 MB: 5 s of the full run's CPU in a
        // debug build, for a buffer that must not grow past its first chunks either way.)
        var block: [UInt8] = []
        for line in Self.lines { block += line; block += [13, 10] }
        let copies = max(1, (100 * NMEALineReader.defaultChunkSize) / max(block.count, 1))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nmea-long-\(getpid()).nmea").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let blockData = Data(block)
        for _ in 0..<copies { handle.write(blockData) }
        try handle.close()

        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var reader = NMEALineReader(fileDescriptor: descriptor)
        let capacity = reader.bufferCapacity
        var lines = 0
        var sentences = 0
        var largestCapacity = capacity
        while let sentence = reader.withNextLine({ NMEAParser.parse($0) }) {
            lines += 1
            if sentence != nil { sentences += 1 }
            if lines % 10_000 == 0 { largestCapacity = max(largestCapacity, reader.bufferCapacity) }
        }
        #expect(reader.bytesRead == copies * block.count)
        let overlong = Self.lines.filter { $0.count > NMEAParser.maximumLineLength }.count
        #expect(lines == copies * (Self.lines.count - overlong))
        #expect(reader.overlongLinesSkipped == copies * overlong)
        #expect(largestCapacity == capacity && capacity <= 2 * NMEALineReader.defaultChunkSize)
        #expect(sentences > 0)
        #expect(reader.readError == nil)
    }
}
