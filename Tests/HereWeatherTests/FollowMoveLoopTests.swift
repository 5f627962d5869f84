import Foundation
import Testing
@testable import HereWeatherCore

/// `FollowLoop`'s rules for a moving place, on a made-up timeline: a move out of the shown
/// place's cell fetches at once, then at most once a minute (for the newest fix), is held
/// asleep or offline, and is dropped by a return into the cell; a refresh or a lifetime's fetch
/// takes a waiting move along and counts as it, and without one leaves the limit alone.
@Suite struct FollowMoveLoopTests {
    typealias Still = FollowLoopTests.Still
    let time = FollowLoopTests.Timeline()

    func fresh(_ text: String, until seconds: Double) -> FollowAnswer {
        FollowAnswer(.fresh(until: time.instant(seconds), lifetime: .seconds(600)), picture: Still(text: text))
    }

    /// A loop showing "a", fresh until 600 s.
    func following() -> FollowLoop {
        var loop = FollowLoop(defaultLifetime: .seconds(600))
        _ = loop.handle(.started, at: time.at(0))
        _ = loop.handle(.cacheRead(fresh("a", until: 600)), at: time.at(0))
        return loop
    }

    /// The loop after a move at `seconds` that fetched "b" (fresh for 600 s from then).
    func moved(at seconds: Double) -> FollowLoop {
        var loop = following()
        _ = loop.handle(.moved, at: time.at(seconds))
        _ = loop.handle(.fetched(fresh("b", until: seconds + 600)), at: time.at(seconds))
        return loop
    }

    @Test func theFirstMoveFetchesAtOnceForTheNewPlace() {
        var loop = following()
        #expect(loop.handle(.moved, at: time.at(100)) == [.move, .fetch(asksService: false)])
        #expect(loop.handle(.fetched(fresh("b", until: 700)), at: time.at(101)) == [.print("b"), .wait(until: time.instant(701))])
    }

    @Test func aSecondMoveWithinTheMinuteWaitsForTheMinute() {
        var loop = moved(at: 100)
        #expect(loop.handle(.moved, at: time.at(130)) == [.wait(until: time.instant(160))], "a minute after the last move")
        #expect(loop.handle(.woke, at: time.at(159)) == [.wait(until: time.instant(160))])
        #expect(loop.handle(.woke, at: time.at(160)) == [.move, .fetch(asksService: false)], "the wait includes its instant")
        _ = loop.handle(.fetched(fresh("c", until: 760)), at: time.at(160))
        #expect(loop.handle(.moved, at: time.at(230)) == [.move, .fetch(asksService: false)], "a minute after: at once")
    }

    @Test func threeMovesWithinTheMinuteMakeOneFetch() {
        var loop = moved(at: 100)
        #expect(loop.handle(.moved, at: time.at(110)) == [.wait(until: time.instant(160))])
        #expect(loop.handle(.returned, at: time.at(115)) == [.wait(until: time.instant(701))])
        #expect(loop.handle(.moved, at: time.at(120)) == [.wait(until: time.instant(160))])
        #expect(loop.handle(.moved, at: time.at(140)) == [.wait(until: time.instant(160))])
        #expect(loop.handle(.woke, at: time.at(160)) == [.move, .fetch(asksService: false)], "one fetch, for the newest fix")
        #expect(loop.handle(.fetched(fresh("c", until: 760)), at: time.at(161)) == [.print("c"), .wait(until: time.instant(761))])
        #expect(loop.handle(.woke, at: time.at(220)) == [.wait(until: time.instant(761))], "nothing more waits")
    }

    @Test func aMoveWhileAsleepIsHeldUntilTheResume() {
        var loop = following()
        _ = loop.handle(.sleeping, at: time.at(10))
        #expect(loop.handle(.moved, at: time.at(20)) == [.wait(until: time.instant(601))], "no fetch asleep")
        #expect(loop.handle(.woke, at: time.at(601)) == [.wait(until: nil)])
        #expect(loop.handle(.resumed, at: time.at(4000)) == [.relocate, .move, .fetch(asksService: false)])
    }

    @Test func aMoveOfflineIsMadeWhenTheNetworkComesUp() {
        var loop = moved(at: 100)
        _ = loop.handle(.network(online: false), at: time.at(110))
        #expect(loop.handle(.moved, at: time.at(120)) == [.wait(until: time.instant(701))], "offline: no wake for it")
        #expect(loop.handle(.woke, at: time.at(160)) == [.wait(until: time.instant(701))])
        #expect(loop.handle(.network(online: true), at: time.at(300)) == [.relocate, .move, .fetch(asksService: false)])
    }

    /// The driver sends `.moved` only for a fix out of the shown place's cell (`FollowMoves`);
    /// a return into it before the minute is up drops the waiting move.
    @Test func aMoveBackIntoTheSameCellDoesNotFetch() {
        var loop = moved(at: 100)
        #expect(loop.handle(.moved, at: time.at(110)) == [.wait(until: time.instant(160))])
        #expect(loop.handle(.returned, at: time.at(120)) == [.wait(until: time.instant(701))])
        #expect(loop.handle(.woke, at: time.at(160)) == [.wait(until: time.instant(701))])
        #expect(!loop.movePending)
    }

    /// A refresh (or the lifetime's fetch) with no waiting move leaves the limit alone: a move
    /// right after it is made at once. With a move waiting, it takes the move along (no fetch for
    /// a place already left) and counts as the minute's move.
    @Test func refreshesAndLifetimesAndTheMoveLimit() {
        var loop = following()
        #expect(loop.handle(.refreshRequested, at: time.at(50)) == [.fetch(asksService: true)])
        _ = loop.handle(.fetched(fresh("a", until: 650)), at: time.at(50))
        #expect(loop.handle(.moved, at: time.at(60)) == [.move, .fetch(asksService: false)], "the refresh did not count")
        _ = loop.handle(.fetched(fresh("b", until: 660)), at: time.at(60))

        #expect(loop.handle(.moved, at: time.at(70)) == [.wait(until: time.instant(120))])
        #expect(loop.handle(.refreshRequested, at: time.at(80)) == [.move, .fetch(asksService: true)],
                "the refresh fetches for the newest place")
        _ = loop.handle(.fetched(fresh("c", until: 680)), at: time.at(80))
        #expect(loop.handle(.woke, at: time.at(120)) == [.wait(until: time.instant(681))], "the move was made")
        #expect(loop.handle(.moved, at: time.at(130)) == [.wait(until: time.instant(140))], "a minute after the refresh's move")

        // The lifetime's end (a short one), with a move waiting: one fetch, for the newest place.
        var aging = following()
        _ = aging.handle(.moved, at: time.at(100))
        _ = aging.handle(.fetched(fresh("b", until: 120)), at: time.at(100))
        #expect(aging.handle(.moved, at: time.at(110)) == [.wait(until: time.instant(121))])
        #expect(aging.handle(.woke, at: time.at(121)) == [.move, .fetch(asksService: false)])
    }
}

/// The cell a service gets (`Coordinate.isInSameCell`) and `FollowMoves`, which tells the loop
/// of a fix leaving the shown place's cell and coming back.
@Suite struct FollowMovesTests {
    @Test func aCellIsTheRoundingTheServicesGet() {
        let tampa = Coordinate(latitude: 27.9514, longitude: -82.4590)
        #expect(tampa.isInSameCell(as: Coordinate(latitude: 27.9549, longitude: -82.4551), decimals: 2))
        #expect(!tampa.isInSameCell(as: Coordinate(latitude: 27.9551, longitude: -82.4590), decimals: 2))
        #expect(tampa.isInSameCell(as: Coordinate(latitude: 27.9514, longitude: -82.4649), decimals: 2))
        #expect(!tampa.isInSameCell(as: Coordinate(latitude: 27.9514, longitude: -82.4651), decimals: 2))
        #expect(tampa.isInSameCell(as: Coordinate(latitude: 28.4, longitude: -82.1), decimals: 0))
        #expect(!tampa.isInSameCell(as: Coordinate(latitude: 27.95145, longitude: -82.4590), decimals: 4))
        #expect(Coordinate(latitude: -0.004, longitude: 0.004).isInSameCell(as: Coordinate(latitude: 0.004, longitude: -0.004),
                                                                            decimals: 2), "-0.0 and 0.0 are one point")
        // What the cache's key and every request round to (`rounded(toDecimals:)`): 0.4 of a step
        // from a rounded point is the same cell, 0.6 is the next.
        for decimals in 0...4 {
            let step = pow(10, -Double(decimals))
            let point = Coordinate(latitude: 51.507351, longitude: -0.127758).rounded(toDecimals: decimals)
            let near = Coordinate(latitude: point.latitude + 0.4 * step, longitude: point.longitude - 0.4 * step)
            let next = Coordinate(latitude: point.latitude + 0.6 * step, longitude: point.longitude)
            #expect(point.isInSameCell(as: near, decimals: decimals), "\(decimals) decimals")
            #expect(!point.isInSameCell(as: next, decimals: decimals), "\(decimals) decimals")
            #expect(near.rounded(toDecimals: decimals) == point && next.rounded(toDecimals: decimals) != point)
        }
    }

    func fix(_ latitude: Double, _ longitude: Double, at seconds: Double) -> Location {
        Location(coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: 5,
                 timestamp: Date(timeIntervalSince1970: 1_795_000_000 + seconds), source: .gpsd)
    }

    /// The event's name, for comparison (`FollowLoop.Event` carries answers, which do not compare).
    func news(_ event: FollowLoop.Event?) -> String {
        switch event {
        case .moved: return "moved"
        case .returned: return "returned"
        case nil: return "none"
        default: return "\(String(describing: event))"
        }
    }

    @Test func onlyLeavingTheCellAndComingBackAreNews() {
        var moves = FollowMoves(decimals: 2)
        #expect(news(moves.take(fix(27.9514, -82.459, at: 1))) == "none", "no place yet")
        moves.placeFound(fix(27.9514, -82.459, at: 1))
        #expect(news(moves.take(fix(27.9520, -82.459, at: 2))) == "none", "the same cell: a stationary receiver's")
        #expect(news(moves.take(fix(27.9560, -82.459, at: 3))) == "moved")
        #expect(news(moves.take(fix(27.9660, -82.459, at: 4))) == "none", "another cell, already away")
        #expect(news(moves.take(fix(27.9540, -82.459, at: 5))) == "returned")
        #expect(news(moves.take(fix(27.9580, -82.459, at: 6))) == "moved")
        #expect(moves.move()?.coordinate.latitude == 27.9580, "the newest fix becomes the place")
        #expect(moves.move() == nil, "no fix since the place")
        #expect(news(moves.take(fix(27.9514, -82.459, at: 6))) == "none", "not newer than the place: a log replayed from its start")
        #expect(news(moves.take(fix(27.9590, -82.459, at: 7))) == "none", "the new place's cell")
        #expect(moves.move()?.coordinate.latitude == 27.9590)
    }
}
