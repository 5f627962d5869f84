#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The NMEA source kept open while `--follow` runs: every fix that qualifies, as it comes.
///
/// - A log file is played from its start at the replay speed on the run's clock, as a request
///   plays it (at `max`, as fast as it can be read); its end ends the watch. (`FollowMoves`
///   ignores the fixes up to the one that found the place.)
/// - A device or FIFO is read on a thread of its own, blocked on the descriptor and the watch's
///   cancellation together, with no timeout (no polling). A FIFO is opened for reading and
///   writing, so that a writer that closes it (one `echo` a fix) leaves it open for the next,
///   and no writer meets a FIFO without a reader: it ends only with the watch.
extension NMEAReplayLocationProvider {
    public func watch(_ request: LocationRequest) -> LocationWatch? {
        let (path, speed, clock) = (self.path, self.speed, self.clock)
        return LocationWatch { log in
            AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
                let cancellation = NMEACancellation(wakes: true)
                continuation.onTermination = { _ in cancellation.cancel() }
                let started = BlockingCall.startThread {
                    let end = Self.watch(path: path, speed: speed, request: request, cancellation: cancellation,
                                         clock: clock) { continuation.yield($0) }
                    if let end, !cancellation.isCancelled { log(end) }
                    continuation.finish()
                }
                if !started {
                    log("--follow: no thread to read \(path) on; its fixes are not followed.")
                    continuation.finish()
                }
            }
        }
    }

    /// Reads `path` until it ends or `cancellation`, handing each qualifying fix to `deliver`;
    /// returns why it ended, for `--verbose` (`nil` when cancelled).
    static func watch(path: String, speed: ReplaySpeed, request: LocationRequest, cancellation: NMEACancellation,
                      clock: any RunClock, deliver: (Location) -> Void) -> String? {
        let descriptor: Int32, live: Bool
        do {
            (descriptor, live) = try openForWatch(path)
        } catch let error as LocationError {
            return "--follow: \(error.message) Following the last place."
        } catch {
            return nil
        }
        defer { close(descriptor) }
        var stream = NMEAStream(fileDescriptor: descriptor, today: clock.date, limit: NMEAReadLimit(cancellation: cancellation))
        var playback = NMEAPlayback(request: request, speed: speed, live: live, cancellation: cancellation, clock: clock)
        playback.watches = true
        while let fix = stream.nextFix(), !cancellation.isCancelled {
            if case .answer(let location) = playback.take(fix) { deliver(location) }
        }
        if cancellation.isCancelled { return nil }
        if let error = stream.readError {
            return "--follow: reading \(path) failed (\(String(cString: strerror(error)))); following the last place."
        }
        return "--follow: \(path) ended; following the last place."
    }

    /// `open(_:)`, with a FIFO opened for reading and writing (Linux keeps such a FIFO open
    /// whoever writes: its reads never see an end).
    static func openForWatch(_ path: String) throws -> (descriptor: Int32, live: Bool) {
        let (descriptor, live) = try open(path)
        var info = stat()
        guard live, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return (descriptor, live) }
        let both = SystemPath.withCString(path) { Glibc.open($0, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard both >= 0 else { return (descriptor, live) }
        close(descriptor)
        return (both, live)
    }
}
