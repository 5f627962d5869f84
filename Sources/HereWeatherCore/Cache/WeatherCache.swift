#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Weather answers kept between runs in `$XDG_CACHE_HOME/here-weather/` (default
/// `~/.cache/here-weather/`), one file per key (`<key>.weather`) and, while a run fetches
/// it, a lock file beside it (`<key>.lock`).
///
/// Writes are atomic (a temporary file, then `rename`), so readers see a whole entry or the
/// previous one. A damaged or foreign file reads as no entry and is replaced by the next
/// write. The lock is `flock(2)` on the lock file: the kernel releases it when its holder
/// exits, however it exits, so a killed run never leaves a key locked. The holder removes
/// the lock file as it lets go (so failed fetches leave no empty lock files behind), and a
/// run that got a lock checks that its file is still the one at the path, else takes that one
/// (`WeatherCacheLock`); a killed run's lock file stays until the key's next fetch.
public struct WeatherCache: Sendable {
    public let directory: String
    /// The run's clock: ages are measured on its date, the lock's wait on its instants.
    public let clock: any RunClock

    public init(directory: String, clock: any RunClock) {
        self.directory = directory
        self.clock = clock
    }

    /// The wall-clock date now, on the run's clock.
    public func now() -> Date { clock.date }

    public func path(for key: WeatherCacheKey) -> String {
        directory + "/" + key.name + ".weather"
    }

    public func lockPath(for key: WeatherCacheKey) -> String {
        directory + "/" + key.name + ".lock"
    }

    /// The entry for `key`; `.missing`, `.corrupt` or `.foreign` when there is none to use.
    public func load(_ key: WeatherCacheKey) throws(WeatherCacheError) -> WeatherCacheEntry {
        let bytes: [UInt8]?
        do {
            bytes = try TextFile.bytes(path(for: key), limit: WeatherCacheEntry.maximumFileBytes)
        } catch {
            // Too large, a folder, unreadable: no entry to use; the next store replaces it.
            throw .corrupt(reason: error.reason)
        }
        guard let bytes else { throw .missing }
        return try WeatherCacheEntry.parse(Data(bytes), expecting: key)
    }

    /// Whether an entry of `provider` in `units`, for any place, is fresh under `ttl`: read
    /// from each entry file whose name (`WeatherCacheKey.name`) says so.
    public func hasFreshEntry(provider: WeatherProviderKind, units: Units, ttl: Double) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
        let now = now()
        return names.contains { name in
            guard let key = WeatherCacheKey(fileName: name), key.provider == provider, key.units == units,
                  let entry = try? load(key) else { return false }
            return entry.isFresh(ttl: ttl, at: now)
        }
    }

    /// Stores `entry` atomically, replacing whatever was there, and removes temporary files
    /// that killed runs left behind.
    public func store(_ entry: WeatherCacheEntry) throws(WeatherCacheError) {
        let path = path(for: entry.key)
        do {
            try AtomicFile.write(bytes: entry.fileBytes(), to: path, overwrite: true)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
        removeAbandonedTemporaryFiles()
    }

    /// Takes the lock for `key`, polling until `limit` while another run holds it.
    ///
    /// A lock got on a file that its holder removed meanwhile (see `WeatherCacheLock.release`)
    /// guards nothing: the file at the path is opened again and locked instead.
    public func lock(_ key: WeatherCacheKey, waitingUntil limit: ContinuousClock.Instant) async throws(WeatherCacheError)
        -> WeatherCacheLock {
        let path = lockPath(for: key)
        var pause = Duration.milliseconds(5)
        while true {
            let descriptor: Int32
            do {
                descriptor = try LockFile.open(path)
            } catch {
                throw .lockFailed(path: path, reason: error.reason)
            }
            while true {
                if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                    if LockFile.isStill(descriptor, at: path) { return WeatherCacheLock(descriptor: descriptor, path: path) }
                    close(descriptor)   // removed by the run that held it: take the one there now
                    break
                }
                let code = errno
                if code == EINTR { continue }
                guard code == EWOULDBLOCK else {
                    close(descriptor)
                    throw .lockFailed(path: path, reason: String(cString: strerror(code)))
                }
                guard clock.now < limit else {
                    close(descriptor)
                    throw .lockTimedOut(path: path)
                }
                await Self.pause(pause, orUntil: min(clock.now.advanced(by: pause), limit), on: clock)
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    /// Returns after `pause` of real time, or once `clock` reaches `instant`, whichever comes
    /// first. The lock is freed in real time (by another run, or by a child process that a
    /// thread of this process is starting, which holds a copy of the descriptor until its
    /// exec); the limit is the run clock's. On a clock that stands still until a test moves
    /// it, a pause on that clock alone would never retry (seen: a test hung for good).
    private static func pause(_ pause: Duration, orUntil instant: ContinuousClock.Instant, on clock: any RunClock) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(until: instant, tolerance: nil) }
            group.addTask { try? await Task.sleep(for: pause) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Temporary files older than this were left by a run that was killed mid-write.
    static let abandonedAfter: TimeInterval = 60

    private func removeAbandonedTemporaryFiles() {
        AtomicFile.removeAbandoned(in: directory, olderThan: Self.abandonedAfter)
    }
}

/// A held cache lock; `release()` (or the last reference going, or the process's exit) lets
/// the next run in.
///
/// A class whose descriptor is taken out once: releasing twice (a copy of a struct did) closed
/// the number twice, and the second close could hit another thread's file opened meanwhile.
public final class WeatherCacheLock: Sendable {
    private let descriptor: Atomic<Int32>
    /// The lock file's path, removed on release.
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = Atomic(descriptor)
        self.path = path
    }

    /// The lock file's descriptor; -1 once released.
    var heldDescriptor: Int32 { descriptor.load(ordering: .acquiring) }

    /// Removes the lock file while still holding it, then closes it (which unlocks it); any
    /// later call does nothing. Removed first, so a run that opens the path afterwards makes a
    /// new file, and one already waiting on this file sees it gone once it gets the lock.
    public func release() {
        let taken = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        guard taken >= 0 else { return }
        if LockFile.isStill(taken, at: path) { _ = SystemPath.withCString(path) { unlink($0) } }
        close(taken)
    }

    deinit { release() }
}

private extension Error {
    var reason: String {
        (self as? AtomicFile.WriteError)?.reason ?? "\(self)"
    }
}
