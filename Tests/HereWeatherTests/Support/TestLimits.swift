/// The default bounds of what a test waits for, so that a hang fails its test, named, instead
/// of stalling the run until `scripts/test-watchdog` kills it (1200 s).
enum TestLimits {
    /// One run of the command, binary or in-process: far above any deadline a test gives.
    static let longestRun: Duration = .seconds(120)
    /// Any other child to its end: more than a cold `swift build` here takes.
    static let longestChild: Duration = .seconds(900)
}
