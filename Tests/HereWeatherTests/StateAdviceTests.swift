import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// Advice that works in the state the user is in (issue 35, C11-C15): a failure line names
/// the place where the user made the choice it is about, and never offers what is already so.
@Suite struct StateAdviceTests {
    /// `--provider nws` with no contact once said to set `[weather] provider`, which the user
    /// had not touched: the other service is offered where the NWS was chosen.
    @Test func aMissingContactOffersTheOtherProviderWhereTheChoiceWasMade() async throws {
        let runner = try InProcessCommand()
        let flag = try await runner.run(["--provider", "nws", "--lat", "40.7", "--lon", "-74"])
        #expect(flag.status == 78, "\(flag.stderr)")
        #expect(flag.stderr.contains("Or use --provider open-meteo, which needs none."), "\(flag.stderr)")
        #expect(!flag.stderr.contains("[weather] provider"), "\(flag.stderr)")

        try runner.writeConfig("[weather]\nprovider = \"nws\"\n")
        let config = try await runner.run(["--lat", "40.7", "--lon", "-74"])
        #expect(config.status == 78, "\(config.stderr)")
        #expect(config.stderr.contains("Or set [weather] provider = \"open-meteo\", which needs none."), "\(config.stderr)")
        #expect(!config.stderr.contains("--provider"), "\(config.stderr)")
    }

    static let fixedPlace = "[location.fixed]\nlatitude = 40.7\nlongitude = -74\n"

    /// `[location] enabled = false` beside a fixed location once said "set a fixed location":
    /// it is set, and the switch is what keeps it off.
    @Test func locationOffWithAFixedPlaceDoesNotAskForOne() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("[location]\nenabled = false\n" + Self.fixedPlace)
        for arguments in [["where"], ["where", "--source", "fixed"]] {
            let result = try await runner.run(arguments, assembly: .withoutDaemons)
            #expect(result.status == 77, "\(result.stderr)")
            #expect(!result.stderr.contains("set a fixed location"), "\(result.stderr)")
            #expect(result.stderr.contains("and with them the fixed location set there. Set enabled = true there to use it, or give the place with --city NAME or --lat and --lon."),
                    "\(result.stderr)")
        }
        try runner.writeConfig("[location]\nenabled = false\n")
        let none = try await runner.run(["where"], assembly: .withoutDaemons)
        #expect(none.stderr.contains("or set a fixed location ([location.fixed] latitude and longitude)"), "\(none.stderr)")
    }

    /// A denied fixed place among sources waiting for a decision once showed only "IP lookup
    /// needs your permission": the place the user set is denied, and that is what is said,
    /// with how to allow it, and never "set a fixed location".
    @Test(arguments: [["where"], ["where", "--source", "fixed"]])
    func aDeniedFixedPlaceSaysSoAndHowToAllowIt(arguments: [String]) async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.fixedPlace)
        #expect(try await runner.run(["permissions", "deny", "fixed"]).status == 0)
        let result = try await runner.run(arguments, assembly: .withoutDaemons)
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.contains("Location from the fixed location (location.fixed) is denied"), "\(result.stderr)")
        #expect(result.stderr.contains("Run `here-weather permissions allow fixed` to allow it"), "\(result.stderr)")
        #expect(!result.stderr.contains("set a fixed location"), "\(result.stderr)")
    }

    /// `doctor` with a fixed place that answers once sent the user to `permissions allow ip`,
    /// which the run does not need.
    @Test func doctorWithAFixedPlaceDoesNotPushAnUndecidedSource() async throws {
        let runner = try InProcessCommand()
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let weather = "[weather.open-meteo]\nbase_url = \"http://127.0.0.1:\(closed.port)\"\nallow_plain_http = true\n"
        try runner.writeConfig(Self.fixedPlace + weather)
        let fixed = try await runner.run(["doctor", "--json"], assembly: .withoutDaemons)
        let checks = try #require(fixed.json?["checks"] as? [[String: Any]], "\(fixed.stdout)")
        let ip = try #require(checks.first { $0["name"] as? String == "ip" })
        #expect(ip["detail"] as? String == "not probed: permission not decided, and not needed: the fixed location answers", "\(ip)")
        #expect(!fixed.stdout.contains("permissions allow"), "\(fixed.stdout)")

        try runner.writeConfig(weather)
        let none = try await runner.run(["doctor", "--json"], assembly: .withoutDaemons)
        #expect(none.stdout.contains("not probed: permission not decided; run `here-weather permissions allow ip`"), "\(none.stdout)")
    }

    /// "A receiver needs a clear view of the sky" is for a receiver that is on and sees too
    /// few satellites: not for gpsd with no receiver, nor a recording replayed past the deadline.
    @Test func theSkyAdviceIsOnlyForAReceiverThatIsOn() async throws {
        let request = LocationRequest(timeout: .seconds(10), start: .now)
        guard case .fail(let noDevice) = GPSDSessionRulesTests.run([#"{"class":"VERSION","release":"3.22"}"#], request: request) else {
            Issue.record("no fix expected"); return
        }
        #expect(noDevice.message.hasPrefix("No GPS fix within 10 s: gpsd on 127.0.0.1:2947 reported no receiver yet"), "\(noDevice.message)")
        #expect(!noDevice.message.contains("clear view of the sky"), "\(noDevice.message)")
        #expect(noDevice.message.contains("gpsd has no receiver to read"), "\(noDevice.message)")
        let sky = #"{"class":"SKY","satellites":[{"PRN":1,"used":true}]}"#
        let devices = #"{"class":"DEVICES","devices":[{"path":"/dev/ttyACM0"}]}"#
        guard case .fail(let receiver) = GPSDSessionRulesTests.run([#"{"class":"VERSION","release":"3.22"}"#, devices, sky], request: request) else {
            Issue.record("no fix expected"); return
        }
        #expect(receiver.message.contains("clear view of the sky"), "\(receiver.message)")

        // A 40-epoch log without a fix, replayed at its recorded pace on a test clock that
        // passes the 10 s deadline.
        let clock = TestClock()
        let replay = Task {
            try await NMEAReplayLocationProvider(path: Fixtures.url("nmea/no-fix.nmea").path, speed: .factor(1), clock: clock)
                .requestLocation(LocationRequest(timeout: .seconds(10), start: clock.now))
        }
        let ended = Mutex(false)
        let watcher = Task { _ = await replay.result; ended.withLock { $0 = true } }
        for _ in 0..<600 where !ended.withLock({ $0 }) {
            clock.advance(1)
            try await Task.sleep(for: .milliseconds(50))
        }
        await watcher.value
        do {
            _ = try await replay.value
            Issue.record("no fix expected")
        } catch let error as LocationError {
            #expect(error.message.hasPrefix("No NMEA fix within 10 s: replaying no-fix.nmea"), "\(error.message)")
            #expect(!error.message.contains("clear view of the sky"), "\(error.message)")
            #expect(error.message.contains("higher --replay-speed"), "\(error.message)")
        }
    }

    /// Issue 35 D25: doctor says nothing twice: no "(skipped)" after SKIP, and a fixed place
    /// without a name is its coordinate once.
    @Test func doctorSaysNothingTwice() async throws {
        let runner = try InProcessCommand()
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        try runner.writeConfig(Self.fixedPlace + "[weather.open-meteo]\nbase_url = \"http://127.0.0.1:\(closed.port)\"\nallow_plain_http = true\n")
        let result = try await runner.run(["doctor", "--json"], assembly: .withoutDaemons)
        let checks = try #require(result.json?["checks"] as? [[String: Any]], "\(result.stdout)")
        let details = Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0["detail"] as? String ?? "") })
        #expect(details["gpsd"] == "not found on this machine", "\(details)")
        #expect(details["fixed"] == "fixed: 40.7000°N, 74.0000°W", "\(details)")
    }
}
