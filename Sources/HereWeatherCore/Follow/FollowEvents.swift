/// Where `--follow` hears from outside the process: a stream of the loop's events, started
/// once by the follow loop. The live system merges the process's signals (SIGUSR1: refresh
/// now) with the system bus's (logind's sleep and resume, NetworkManager's state and primary
/// connection).
public struct FollowEventSource: Sendable {
    /// Starts the source, given where to say what it could not subscribe to (`--verbose`'s
    /// notes: nothing without it); its events, in order.
    public let start: @Sendable (_ log: @escaping @Sendable (String) -> Void) -> AsyncStream<FollowLoop.Event>

    public init(start: @escaping @Sendable (_ log: @escaping @Sendable (String) -> Void) -> AsyncStream<FollowLoop.Event>) {
        self.start = start
    }

    /// A source that never says anything (a run that does not follow, or a test that sends no
    /// event): the loop then runs on its clock alone.
    public static let silent = FollowEventSource { _ in AsyncStream { _ in } }

    /// The events of all `sources`, as each sends them; it ends when they all have.
    public static func merging(_ sources: [FollowEventSource]) -> FollowEventSource {
        FollowEventSource { log in
            AsyncStream { continuation in
                let tasks = sources.map { source in
                    Task {
                        for await event in source.start(log) { continuation.yield(event) }
                    }
                }
                let all = Task {
                    for task in tasks { await task.value }
                    continuation.finish()
                }
                continuation.onTermination = { _ in
                    all.cancel()
                    for task in tasks { task.cancel() }
                }
            }
        }
    }
}
