import Foundation
import Glibc
import HereWeatherCore
import Synchronization

/// Watches the threads of a child process while it runs: the highest `Threads:` count in
/// `/proc/PID/status` seen, sampling every few milliseconds on a thread of its own, and the
/// peak resident memory the kernel counted (`VmHWM:`, `peakResidentKiB`).
///
/// The child is found by a tag in its environment (`environment`), so that the runner that
/// starts it needs no change. Sampling can miss a short peak, never invent one: a count seen
/// is a count the child had.
final class ThreadSampler: @unchecked Sendable {
    let tag = "HERE_WEATHER_THREAD_SAMPLER=\(UUID().uuidString)"
    private let executable: String
    private let state = Mutex<(peak: Int, pid: pid_t?, stopped: Bool, resident: Int)>((0, nil, false, 0))
    private let finished = DispatchSemaphore(value: 0)

    /// Starts sampling processes that run `executable` with this sampler's tag.
    init(executable: String) {
        self.executable = executable
        _ = BlockingCall.startThread { [self] in
            while !state.withLock({ $0.stopped }) {
                sample()
                usleep(2_000)
            }
            finished.signal()
        }
    }

    /// The environment entry to give the child.
    var environment: [String: String] {
        let parts = tag.split(separator: "=", maxSplits: 1).map(String.init)
        return [parts[0]: parts[1]]
    }

    /// The highest peak resident size seen, in KiB (0 if the child was never found): the
    /// kernel's own high-water mark, so a short peak between samples is counted too, up to the
    /// last sample before the child ended.
    var peakResidentKiB: Int { state.withLock { $0.resident } }

    /// Stops sampling; the highest count seen (0 if the child was never found).
    func stop() async -> Int {
        state.withLock { $0.stopped = true }
        _ = try? await BlockingCall.run { Result { self.finished.wait() } }
        return state.withLock { $0.peak }
    }

    private func sample() {
        if let pid = state.withLock({ $0.pid }) {
            if let threads = Self.field("Threads:", of: pid) { state.withLock { $0.peak = max($0.peak, threads) } }
            if let resident = Self.field("VmHWM:", of: pid) { state.withLock { $0.resident = max($0.resident, resident) } }
            return
        }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = pid_t(entry),
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable,
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  environ.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == tag }) else { continue }
            state.withLock { $0.pid = pid }
            return
        }
    }

    /// The number in `/proc/PID/status`'s line `name` ("Threads:", "VmHWM:", whose "kB" is dropped).
    private static func field(_ name: String, of pid: pid_t) -> Int? {
        guard let status = FileManager.default.contents(atPath: "/proc/\(pid)/status") else { return nil }
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name) }
        return line.flatMap { Int($0.dropFirst(name.count).replacingOccurrences(of: "kB", with: "").trimmingCharacters(in: .whitespaces)) }
    }
}
