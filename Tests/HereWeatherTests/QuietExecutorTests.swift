import Foundation
import Glibc
import Synchronization
import Testing
@testable import HereWeatherExecutors

/// The program's own executors (`QuietExecutors`), in-process: the pool runs what it is given,
/// in order, on no more threads than its width; its timer runs scheduled jobs in deadline order
/// and leaves its timerfds disarmed when nothing is pending, so that a waiting process has no
/// timer (issue 31). The binary runs on them in every process test; an idle follower's wakes
/// are counted in `FollowIdleProcessTests`.
@Suite struct QuietExecutorTests {
    @Test func oneThreadRunsTasksInTheOrderTheyCame() async {
        let pool = ThreadPoolExecutor(width: 1)
        let order = Record<Int>()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<200 {
            tasks.append(Task(executorPreference: pool) { @Sendable in order.add(index) })
        }
        for task in tasks { await task.value }
        #expect(order.values == Array(0..<200))
        #expect(pool.threadCount == 1)
    }

    @Test func manyTasksRunOnNoMoreThreadsThanTheWidth() async {
        let pool = ThreadPoolExecutor(width: 3)
        let threads = Record<UInt>()
        for _ in 0..<2 {
            let sum = await Task(executorPreference: pool) { @Sendable in
                await withTaskGroup(of: Int.self) { group in
                    for index in 0..<10_000 {
                        group.addTask {
                            threads.add(UInt(pthread_self()))
                            return index
                        }
                    }
                    return await group.reduce(0, +)
                }
            }.value
            #expect(sum == 49_995_000)
        }
        // No thread leaks: the second batch ran on the threads of the first.
        #expect(pool.threadCount <= 3)
        #expect(Set(threads.values).count <= 3)
    }

    @Test func aCancelledSleepEndsAtOnceOnThePool() async {
        let pool = ThreadPoolExecutor(width: 2)
        let sleeper = Task(executorPreference: pool) { try await Task.sleep(for: .seconds(3600)) }
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// Jobs scheduled out of order on the live clocks run in the order of their instants,
    /// each after its delay, however late the timer's thread wakes on a busy machine.
    @Test(arguments: [false, true])
    func scheduledJobsRunInTheOrderOfTheirInstants(suspending: Bool) async {
        let pool = ThreadPoolExecutor(width: 1)
        // Instants from one start, 50 ms and more apart: a loaded machine may stall the loop
        // between two jobs (each instant taken then, 0 at 60 ms and 4 at 40 ms once ran 4 first).
        let delays = [300, 0, 100, 400, 200, 150]
        let (ran, ranNow) = AsyncStream.makeStream(of: (Int, Duration).self)
        let start = ContinuousClock.now
        let suspendingStart = SuspendingClock.now
        for (index, milliseconds) in delays.enumerated() {
            let job = _swift_createJobForTestingOnly {
                ranNow.yield((index, ContinuousClock.now - start))
            }
            if suspending {
                pool.enqueue(job, at: suspendingStart + .milliseconds(milliseconds), tolerance: nil, clock: SuspendingClock())
            } else {
                pool.enqueue(job, at: start + .milliseconds(milliseconds), tolerance: nil, clock: ContinuousClock())
            }
        }
        var order: [Int] = []
        for await (index, after) in ran {
            order.append(index)
            #expect(after >= .milliseconds(delays[index]), "job \(index)")
            if order.count == delays.count { break }
        }
        #expect(order == [1, 2, 5, 4, 0, 3])
        #expect(pool.scheduledCount == 0)
    }

    /// The timer's thread wakes only for a due action: once none is pending, both timerfds are
    /// disarmed (the kernel's own view, /proc/self/fdinfo), and a sleep on one clock does not
    /// arm the other.
    @Test func theTimersAreDisarmedWhenNothingIsPending() async throws {
        let timer = TimerThread()
        let (ran, ranNow) = AsyncStream.makeStream(of: Int.self)
        for index in 0..<1000 {
            timer.schedule(after: Int64(index % 50) * 1_000_000, on: index % 2 == 0 ? .continuous : .suspending) {
                ranNow.yield(index)
            }
        }
        var count = 0
        for await _ in ran {
            count += 1
            if count == 1000 { break }
        }
        #expect(timer.pendingCount == 0)
        let descriptors = timer.descriptors
        #expect(descriptors.count == 2)
        for descriptor in descriptors { #expect(try Self.armed(descriptor) == false) }

        timer.schedule(after: 3_600_000_000_000, on: .suspending) {}
        #expect(try Self.armed(descriptors[TimerThread.Kind.suspending.rawValue]) == true)
        #expect(try Self.armed(descriptors[TimerThread.Kind.continuous.rawValue]) == false)
    }

    @Test func aDelayAlreadyPastRunsAtOnce() {
        let timer = TimerThread()
        let ran = Mutex(false)
        timer.schedule(after: 0, on: .continuous) { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
        #expect(timer.descriptors.isEmpty)  // Nothing to wait for: no thread, no timerfd.
    }

    @Test func hugeAndNegativeDelaysAreClamped() {
        #expect(ThreadPoolExecutor.nanoseconds(Duration.seconds(Int64.max)) == .max)
        #expect(ThreadPoolExecutor.nanoseconds(Duration.seconds(-5)) == 0)
        #expect(ThreadPoolExecutor.nanoseconds(Duration.milliseconds(1500)) == 1_500_000_000)
    }

    /// Values added from any thread.
    final class Record<Value: Sendable>: Sendable {
        private let list = Mutex<[Value]>([])
        func add(_ value: Value) { list.withLock { $0.append(value) } }
        var values: [Value] { list.withLock { $0 } }
    }

    /// Whether the kernel has `descriptor` (a timerfd) armed: its fdinfo's it_value is not (0, 0).
    static func armed(_ descriptor: Int32) throws -> Bool {
        let info = try String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("it_value:") })
        return !line.contains("(0, 0)")
    }
}
