import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// Each descriptor is closed exactly once by its owner: a second close can hit a number the
/// kernel has meanwhile given to another thread's file or socket (in the tests, another test's
/// gpsd connection), and a missed close leaks it.
///
/// Whether a descriptor is closed is seen through a pipe, without racing other threads for
/// numbers: a pipe's read end reads its end (0) only once every write end is closed.
@Suite struct DescriptorOwnershipTests {
    /// A pipe; the read end does not block.
    func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        return (ends[0], ends[1])
    }

    /// Whether every write end of the pipe is closed (what was written is read and dropped).
    func writersGone(_ readEnd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count > 0 { continue }
            return count == 0
        }
    }

    /// fsync fails on a pipe (EINVAL): the descriptor must be closed all the same. Before the
    /// fix a failed fsync skipped the close and leaked the temporary file's descriptor.
    @Test func aFailedSyncStillClosesTheFileOnce() throws {
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        #expect(AtomicFile.fillAndClose(writeEnd, with: Array("entry".utf8), mode: 0o600) == EINVAL)
        #expect(writersGone(readEnd), "the descriptor was left open")
    }

    /// A cache lock released twice (a `defer` and an explicit release; a copy of the lock) closes
    /// its file once: the second release must not close whatever has the number by then.
    @Test func releasingACacheLockTwiceClosesItOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = WeatherCache(directory: directory, clock: ContinuousClock())
        let key = WeatherCacheKey(provider: .openMeteo, coordinate: Coordinate(latitude: 27.95, longitude: -82.46),
                                  units: .metric, coordinateDecimals: 2)
        let (readEnd, writeEnd) = try pipeEnds()
        defer { close(readEnd) }
        // Put the pipe's writer on the number the lock's first release frees (another thread
        // may take the number first: then try again).
        var holder: Int32 = -1
        for _ in 0..<100 where holder < 0 {
            let lock = try await cache.lock(key, waitingUntil: .now + .seconds(10))
            let number = lock.heldDescriptor
            lock.release()
            let moved = fcntl(writeEnd, F_DUPFD_CLOEXEC, number)
            if moved == number {
                holder = moved
                lock.release()
            } else if moved >= 0 {
                close(moved)
            }
        }
        close(writeEnd)
        try #require(holder >= 0, "the freed number was always taken by another thread first")
        defer { close(holder) }
        #expect(!writersGone(readEnd), "the second release closed descriptor \(holder), which it no longer owned")
    }
}
