#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Plays a recorded NMEA 0183 log as if a receiver were attached (`--replay FILE`,
/// `[location.nmea] path`).
///
/// The log keeps its own clock: "now" is the time of the latest epoch read, so max age and
/// the timeout apply as they would have live, and the answer says when in the log it was. At `.max` speed (the default) the log is read
/// as fast as it can be; at a factor it keeps the recorded pace. Reading streams the file
/// in constant memory, and stops at the request's wall-clock deadline or when the task is
/// cancelled, however large the file.
///
/// A FIFO, a pipe (`--replay <(gpspipe -r)`) or a character device is read as a live feed:
/// it is opened without waiting for a writer and read as data arrives, until its writer
/// closes it or the deadline. Its fixes are live: current when they arrive (`NMEAPlayback`).
/// Arrivals, the deadline and the waits at a finite speed are on the run's clock.
public struct NMEAReplayLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .nmea }
    public let path: String
    public let speed: ReplaySpeed
    /// The run's clock.
    public let clock: any RunClock

    public init(path: String, speed: ReplaySpeed = .max, clock: any RunClock) {
        self.path = path
        self.speed = speed
        self.clock = clock
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let (path, speed, clock) = (self.path, self.speed, self.clock)
        let cancellation = NMEACancellation()
        return try await BlockingCall.run({
            Result { try Self.replay(path: path, speed: speed, request: request, cancellation: cancellation, clock: clock) }
        }, onCancel: { cancellation.cancel() })
    }

    static func replay(path: String, speed: ReplaySpeed, request: LocationRequest,
                       cancellation: NMEACancellation = NMEACancellation(),
                       clock: any RunClock) throws -> Location {
        let (descriptor, live) = try open(path)
        defer { close(descriptor) }
        let limit = NMEAReadLimit(deadline: request.deadline, clock: clock, cancellation: cancellation)
        var stream = NMEAStream(fileDescriptor: descriptor, today: clock.date, limit: limit)
        var playback = NMEAPlayback(request: request, speed: speed, live: live, cancellation: cancellation, clock: clock)
        var reachedDeadline = false
        while let fix = stream.nextFix() {
            switch playback.take(fix) {
            case .answer(let location): return location
            case .next: continue
            case .deadline: reachedDeadline = true
            }
            break
        }
        switch stream.stopReason {
        case .cancelled: throw CancellationError()
        case .deadline: reachedDeadline = true
        case nil: break
        }
        if let error = stream.readError {
            throw LocationError.nmeaUnreadable(path: path, reason: String(cString: strerror(error)))
        }
        if let answer = playback.answerAtEnd() { return answer }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if !reachedDeadline, !live, stream.sentencesAccepted == 0, stream.checksumFailures == 0,
           stream.malformedSentences == 0 {
            throw LocationError.notNMEA(path: path, lines: stream.linesRead)
        }
        if !reachedDeadline, !live {
            var seen = "\(stream.sentencesAccepted) sentences in \(playback.epochs) epochs"
            if stream.checksumFailures > 0 { seen += ", \(stream.checksumFailures) with bad checksums dropped" }
            seen += ", " + playback.satellitesSeen
            for part in playback.selector.ignored { seen += ", " + part }
            throw LocationError.replayEnded(name: name, seen: seen, hadFixes: playback.selector.fixesSeen > 0)
        }
        var seen = reachedDeadline ? "replaying \(name)" : "\(name) ended after \(playback.epochs) epochs"
        seen += " (\(stream.sentencesAccepted) sentences read"
        if stream.checksumFailures > 0 { seen += ", \(stream.checksumFailures) with bad checksums dropped" }
        seen += "), " + playback.satellitesSeen
        for part in playback.selector.ignored { seen += ", " + part }
        throw LocationError.noFix(source: "NMEA", seconds: request.timeoutSeconds, seen: seen,
                                  state: live ? .receiverOn : .replaying)
    }

    /// Opens a log (regular file) or a live feed (FIFO, pipe, character device) for reading,
    /// without waiting: `O_NONBLOCK`, so a FIFO with no writer cannot hold up the open.
    /// Directories, missing files and other kinds of file are clear errors. `live`: a FIFO,
    /// pipe or device, whose fixes arrive now, rather than a log file.
    static func open(_ path: String) throws -> (descriptor: Int32, live: Bool) {
        // The path byte for byte, as the user gave it (SystemPath), even where it is not UTF-8.
        let descriptor = SystemPath.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else {
            throw LocationError.nmeaUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        let kind = fstat(descriptor, &info) == 0 ? info.st_mode & S_IFMT : S_IFREG
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFCHR else {
            close(descriptor)
            let what = kind == S_IFDIR ? "it is a directory"
                : "it is not a file, pipe or character device"
            throw LocationError.nmeaUnreadable(path: path, reason: what)
        }
        return (descriptor, kind != S_IFREG)
    }
}
