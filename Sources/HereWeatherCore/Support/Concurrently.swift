/// Runs operations at the same time and collects their results by index.
///
/// The project's only loop over a task group. Swift 6.3.1 miscompiles the tuple form,
/// `for await (index, value) in group`, in release builds: the index is lost across the
/// suspension and the program traps (SIGILL). Debug builds hide it. Every "run these
/// together" in the code goes through here, written with `group.next()` and a named result
/// type, so that the pattern cannot come back in a third place.
public enum Concurrently {
    /// One operation's value, by its index.
    private struct Indexed<Value: Sendable>: Sendable {
        let index: Int
        let value: Value
    }

    /// Runs `operation(0) ..< operation(count - 1)` together and returns their values in
    /// index order.
    ///
    /// After each value arrives, `decided` sees the values so far (`nil` for those still
    /// running); when it returns `true`, the others are cancelled and left `nil`.
    public static func run<Value: Sendable>(
        _ count: Int,
        until decided: ([Value?]) -> Bool = { _ in false },
        _ operation: @escaping @Sendable (Int) async -> Value
    ) async -> [Value?] {
        await withTaskGroup(of: Indexed<Value>.self) { group in
            for index in 0..<count {
                group.addTask { Indexed(index: index, value: await operation(index)) }
            }
            var values = [Value?](repeating: nil, count: count)
            while let next = await group.next() {
                values[next.index] = next.value
                if decided(values) {
                    group.cancelAll()
                    break
                }
            }
            return values
        }
    }
}
