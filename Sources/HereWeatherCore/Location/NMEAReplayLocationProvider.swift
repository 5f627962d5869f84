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
/// the timeout apply as they would have live. At `.max` speed (the default) the log is read
/// as fast as it can be; at a factor it keeps the recorded pace. Reading streams the file
/// in constant memory.
public struct NMEAReplayLocationProvider: LocationSourceProvider {
    public var source: LocationSource { .nmea }
    public let path: String
    public let speed: ReplaySpeed

    public init(path: String, speed: ReplaySpeed = .max) {
        self.path = path
        self.speed = speed
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        let (path, speed) = (self.path, self.speed)
        return try await BlockingCall.run { Result { try Self.replay(path: path, speed: speed, request: request) } }
    }

    static func replay(path: String, speed: ReplaySpeed, request: LocationRequest) throws -> Location {
        let descriptor = try open(path)
        defer { close(descriptor) }
        var stream = NMEAStream(fileDescriptor: descriptor, today: Date())
        var playback = NMEAPlayback(request: request, speed: speed)
        var reachedDeadline = false
        while let fix = stream.nextFix() {
            switch playback.take(fix) {
            case .answer(let location): return location
            case .next: continue
            case .deadline: reachedDeadline = true
            }
            break
        }
        if let error = stream.readError {
            throw LocationError.nmeaUnreadable(path: path, reason: String(cString: strerror(error)))
        }
        if let answer = playback.answerAtEnd() { return answer }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var seen = reachedDeadline ? "replaying \(name)" : "\(name) ended after \(playback.epochs) epochs"
        seen += " (\(stream.sentencesAccepted) sentences read"
        if stream.checksumFailures > 0 { seen += ", \(stream.checksumFailures) with bad checksums dropped" }
        seen += "), " + playback.satellitesSeen
        if playback.selector.staleFixesSeen > 0 { seen += ", \(playback.selector.staleFixesSeen) fixes older than the max age ignored" }
        throw LocationError.noFix(source: "NMEA", seconds: request.timeoutSeconds, seen: seen)
    }

    /// Opens a regular file for reading; directories and missing files are clear errors.
    static func open(_ path: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LocationError.nmeaUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            close(descriptor)
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "it is a directory"
                : "it is not a regular file (for a serial receiver, run gpsd on it and use the gpsd source)"
            throw LocationError.nmeaUnreadable(path: path, reason: what)
        }
        return descriptor
    }
}
