extension Duration {
    /// The duration in whole milliseconds, rounded toward zero: what poll(2), libcurl and the
    /// verbose log take.
    public var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, with its fraction: what messages and `Date` arithmetic take.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
