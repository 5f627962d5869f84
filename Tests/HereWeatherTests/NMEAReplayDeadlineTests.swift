import Foundation
import Testing
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// The NMEA source honours the request's deadline and task cancellation, whatever it reads:
/// a FIFO with no writer, a live feed, a huge file with no sentences. Through the release
/// binary; `killAfter` tells a run that ended from one that hung.
@Suite struct NMEAReplayDeadlineTests {
    /// Far beyond any deadline here: a run still going after it hung.
    static let hung: Duration = .seconds(90)

    /// A new FIFO in a folder of its own.
    static func makeFIFO() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nmea-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("receiver").path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return path
    }

    @Test func aFIFOWithNoWriterEndsAtTheDeadline() async throws {
        let fifo = try Self.makeFIFO()
        let result = try await CommandRunner().run(["where", "--replay", fifo, "--timeout", "2"], killAfter: Self.hung)
        #expect(!result.killed, "--replay of a FIFO with no writer hung")
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("No NMEA fix within 2 s"), "\(result.stderr)")
        #expect(result.stderr.contains("replaying receiver (0 sentences read)"), "\(result.stderr)")
    }

    @Test func aFIFOWithAWriterIsALiveFeed() async throws {
        let fifo = try Self.makeFIFO()
        // 14 KB: it fits in the pipe's buffer, so the writer never meets a reader that has gone.
        let log = try Data(contentsOf: Fixtures.url("nmea/southern-eastern.nmea"))
        async let run = CommandRunner().run(["where", "--replay", fifo, "--timeout", "60"], killAfter: Self.hung)
        // The writer's side, once the command has the FIFO open for reading.
        let written = try await BlockingCall.run { Result { try Self.write(log, toFIFO: fifo, within: .seconds(60)) } }
        let result = try await run
        #expect(written, "the command never opened the FIFO")
        #expect(!result.killed && result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" -33.8688"), "\(result.stdout)")
        // A receiver read live, not a log replayed (issue 35 A6).
        let source = result.stdout.split(separator: "\n").first { $0.hasPrefix("Source:") }
        #expect(source?.contains(" NMEA device, ") == true, "\(result.stdout)")
        #expect(!result.stdout.contains("replay"), "\(result.stdout)")
    }

    /// An NMEA source reading a FIFO that nobody writes to never holds up the fixed location.
    /// A fixed place with no stated accuracy meets the request, so it answers at once in either
    /// order (`LocationSourceChain`): the NMEA source is never started, and its 600 s deadline
    /// would show as a hang. A fixed place of 5 km does not meet 3 km, so both sources start
    /// and race: the NMEA source gives way at its 2 s deadline, and the fixed place is the best
    /// fix there was (`meets_accuracy` false tells this path from the first).
    @Test(arguments: [(#"["nmea", "fixed"]"#, nil, "600"), (#"["fixed", "nmea"]"#, nil, "600"),
                      (#"["nmea", "fixed"]"#, 5000, "2")] as [(String, Int?, String)])
    func anNMEASourceDoesNotHoldUpTheFixedLocation(sources: String, fixedAccuracy: Int?, timeout: String) async throws {
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(sources: sources, nmeaPath: try Self.makeFIFO(), fixedAccuracy: fixedAccuracy))
        let result = try await runner.run(["where", "--json", "--timeout", timeout], killAfter: Self.hung)
        #expect(!result.killed, "an NMEA FIFO with no writer held up the fixed location")
        #expect(result.status == 0, "\(result.stderr)")
        let location = result.json?["location"] as? [String: Any]
        #expect(location?["source"] as? String == "fixed", "\(result.stdout)")
        #expect(location?["meets_accuracy"] as? Bool == (fixedAccuracy == nil), "\(result.stdout)")
    }

    @Test func aHugeFileWithoutSentencesEndsAtTheDeadline() async throws {
        // 1 TiB of zeros, sparse: reading it whole takes many minutes.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sparse-\(UUID().uuidString).nmea")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(truncate(url.path, 1 << 40) == 0, "truncate: \(String(cString: strerror(errno)))")
        let result = try await CommandRunner().run(["where", "--replay", url.path, "--timeout", "1"], killAfter: Self.hung)
        #expect(!result.killed, "reading a huge file ignored the 1 s deadline")
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("No NMEA fix within 1 s"), "\(result.stderr)")
    }

    @Test func theReaderStopsAtItsLimitWhileAPipeHasNoWholeLine() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        // A line cut short by the deadline is not handed out.
        _ = "$GPGGA,1".withCString { Glibc.write(ends[1], $0, 8) }
        var reader = NMEALineReader(fileDescriptor: ends[0], limit: NMEAReadLimit(deadline: .now + .milliseconds(200)))
        #expect(reader.withNextLine { _ in () } == nil)
        #expect(reader.stopReason == .deadline && reader.bytesRead == 8)
        let cancellation = NMEACancellation()
        cancellation.cancel()
        var cancelled = NMEALineReader(fileDescriptor: ends[0], limit: NMEAReadLimit(cancellation: cancellation))
        #expect(cancelled.withNextLine { _ in () } == nil)
        #expect(cancelled.stopReason == .cancelled)
    }

    static func config(sources: String, nmeaPath: String, fixedAccuracy: Int? = nil) -> String {
        """
        version = 1
        [location]
        sources = \(sources)
        [location.nmea]
        path = "\(nmeaPath)"
        [location.fixed]
        latitude = 27.9506
        longitude = -82.4572
        """ + (fixedAccuracy.map { "\naccuracy = \($0)\n" } ?? "")
    }

    /// Opens `fifo` for writing once a reader has it open (retrying while there is none, up to
    /// `limit`), writes `data` and closes it. `false` if no reader came.
    static func write(_ data: Data, toFIFO fifo: String, within limit: Duration) throws -> Bool {
        let end = ContinuousClock.now + limit
        var descriptor: Int32 = -1
        while descriptor < 0 {
            descriptor = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if descriptor < 0 {
                guard errno == ENXIO, ContinuousClock.now < end else { return false }
                usleep(20_000)
            }
        }
        defer { close(descriptor) }
        // Blocking writes from here: the reader takes the data as it comes.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += count
            }
        }
        return true
    }
}
