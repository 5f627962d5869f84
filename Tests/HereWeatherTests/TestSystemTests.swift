import Foundation
import Synchronization
import Testing
@testable import HereWeatherCLI
@testable import HereWeatherCore

/// The test system (issue 32): an in-process run that touches a part its test did not give
/// fails the test naming the part, and a live network request is refused naming the host.
/// Each run below fails on purpose; `withKnownIssue` takes the failures it expects, and the
/// test checks what they said.
@Suite struct TestSystemTests {
    /// Runs `body` expecting it to record issues, and returns what they said.
    static func issues(_ body: @escaping @Sendable () async throws -> Void) async throws -> [String] {
        let said = Mutex<[String]>([])
        try await withKnownIssue {
            try await body()
        } matching: { issue in
            said.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: " ")) }
            return true
        }
        return said.withLock { $0 }
    }

    /// The zero-config chain asks gpsd, GeoClue and NetworkManager whether they are here: a
    /// test that gave none of them learns which, and what to pass.
    @Test func aForgottenPartFailsTheTestNamingIt() async throws {
        let runner = try InProcessCommand()
        let said = try await Self.issues { _ = try await runner.run(["where"]) }
        for part in ["gpsd (pass gpsd:", "GeoClue (pass geoClue:", "NetworkManager (pass wifiScanner:"] {
            #expect(said.contains { $0.contains("The run touched \(part)") }, "\(said)")
        }
    }

    /// The same run with the parts given (absent from this machine) records nothing.
    @Test func theSameRunWithItsPartsGivenPasses() async throws {
        let result = try await InProcessCommand().run(["where"], assembly: .withoutDaemons)
        #expect(result.status == 77, "no terminal to ask about IP lookup: \(result.stderr)")
    }

    /// A weather service on the internet (the default Open-Meteo, and its Air Quality API beside
    /// it): each request is refused, the test fails naming each host, and the run reports the
    /// weather's refusal. (Tokyo: no official warnings source is asked there.)
    @Test func aLiveRequestIsRefusedNamingTheHost() async throws {
        let runner = try InProcessCommand()
        let result = Mutex<InProcessCommand.Result?>(nil)
        let said = try await Self.issues {
            let run = try await runner.run(["--lat", "35.68", "--lon", "139.69", "--no-cache"])
            result.withLock { $0 = run }
        }
        #expect(said.count == 2, "\(said)")
        #expect(said.contains { $0.contains("asked api.open-meteo.com") }, "\(said)")
        #expect(said.contains { $0.contains("asked air-quality-api.open-meteo.com") }, "\(said)")
        #expect(said.allSatisfy { $0.contains("a live network request, refused") }, "\(said)")
        let run = try #require(result.withLock { $0 })
        #expect(run.status == 69)
        #expect(run.stderr.contains("Cannot reach Open-Meteo: connection refused by api.open-meteo.com"), "\(run.stderr)")
    }

    /// gpsd's real client reaches only this machine: a config naming another host is refused.
    @Test func gpsdOnAnotherMachineIsRefusedNamingTheHost() async throws {
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd"]
            [location.gpsd]
            host = "gps.example"
            permission = "allow"
            """)
        let said = try await Self.issues { _ = try await runner.run(["where"], assembly: .gpsdOnly) }
        #expect(said == ["An in-process run asked gpsd at gps.example, which is not this machine: refused."], "\(said)")
    }
}
