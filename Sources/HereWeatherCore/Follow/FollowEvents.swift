/// Where `--follow` hears from outside the process: a stream of the loop's events, started
/// once by the follow loop. Phase 1 has the process's signals (SIGUSR1: refresh now); logind's
/// sleep and resume, NetworkManager's state and a live location source come as sources of
/// their own, merged into the loop's events beside it.
public struct FollowEventSource: Sendable {
    /// Starts the source; its events, in order.
    public let start: @Sendable () -> AsyncStream<FollowLoop.Event>

    public init(start: @escaping @Sendable () -> AsyncStream<FollowLoop.Event>) {
        self.start = start
    }

    /// A source that never says anything (a run that does not follow, or a test that sends no
    /// event): the loop then runs on its clock alone.
    public static let silent = FollowEventSource { AsyncStream { _ in } }
}
