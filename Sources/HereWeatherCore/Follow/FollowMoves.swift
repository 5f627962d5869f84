/// Where a watched source says the machine is, against the place of the shown report: the
/// driver of `--follow` gives it each fix as it comes (`take`) and sends the loop what it
/// answers, `.moved` when the newest fix leaves the place's cell (the coordinates rounded to
/// `[privacy] coordinate_decimals`, as the services and the cache get them) and `.returned`
/// when it comes back; it answers nothing for a fix that changes neither (a stationary
/// receiver, a fix in a cell next to one already left), so that the loop hears only of changes.
///
/// A fix that is not newer than the place is no news: a log replayed again from its start
/// says nothing until it passes the fix that found the place.
public struct FollowMoves: Sendable {
    /// The decimals of the coordinates sent to services.
    public let decimals: Int
    /// The place of the shown report (the one fetched for).
    public private(set) var place: Location?
    /// The newest fix, when it is not the place.
    public private(set) var newest: Location?
    /// Whether the newest fix is out of the place's cell.
    public private(set) var away = false

    public init(decimals: Int) {
        self.decimals = decimals
    }

    /// The place the weather is now fetched for (found by the sources, or a move made).
    public mutating func placeFound(_ location: Location) {
        place = location
        newest = nil
        away = false
    }

    /// Takes a fix from the watched source; the loop's event, if the fix changes what it knows.
    public mutating func take(_ fix: Location) -> FollowLoop.Event? {
        guard let place, fix.timestamp > place.timestamp, fix.coordinate.isValid else { return nil }
        newest = fix
        let leaves = !fix.coordinate.isInSameCell(as: place.coordinate, decimals: decimals)
        defer { away = leaves }
        if leaves && !away { return .moved }
        if !leaves && away { return .returned }
        return nil
    }

    /// Makes the newest fix the place (the loop's `.move`) and returns it; `nil` when no fix
    /// came since the place was found (the place stays).
    public mutating func move() -> Location? {
        guard let newest else { return nil }
        placeFound(newest)
        return newest
    }
}
