import Foundation
import Testing
@testable import HereWeatherCLI

/// Wi-Fi positioning through the command, in-process: the NetworkManager stand-in on a private
/// bus (the run's system is assembled on it: `SystemAssembly.test(bus:)`), a geolocate server
/// on 127.0.0.1, and the user's config. Only the binary reads `DBUS_SYSTEM_BUS_ADDRESS` itself
/// (`noSystemBusIsAClearError`).
@Suite struct WiFiCommandTests {
    static func config(_ server: FixtureServer, permission: String? = "allow", sources: String = #"["wifi"]"#,
                       extra: String = "") -> String {
        """
        version = 1
        [location]
        sources = \(sources)
        timeout = 30
        \(extra)
        [location.wifi]
        \(permission.map { "permission = \"\($0)\"" } ?? "")
        base_url = "\(server.baseURL)/v1/geolocate"
        key = "not-a-real-wifi-key"
        """
    }

    static func server() throws -> FixtureServer {
        try FixtureServer.inspecting { _ in .fixture("wifi/geolocate/success.json") }
    }

    @Test func whereAnswersFromWiFiWithItsProvenance() async throws {
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        let result = try await runner.run(["where", "--json"], killAfter: .seconds(60), assembly: .onBus(service))
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "wifi")
        #expect(location["service"] as? String == "127.0.0.1")
        #expect(location["access_points"] as? Int == 7)
        #expect(location["accuracy_m"] as? Double == 42)
        #expect(location["meets_accuracy"] as? Bool == true)
        let text = try await runner.run(["where"], killAfter: .seconds(60), assembly: .onBus(service))
        #expect(text.stdout.contains("Wi-Fi positioning via 127.0.0.1, 7 access points"), "\(text.stdout)")
    }

    @Test func verboseShowsThePostWithMaskedAddressesAndNeverTheKey() async throws {
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        let result = try await runner.run(["where", "--verbose"], killAfter: .seconds(60), assembly: .onBus(service))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("POST \(server.baseURL)/v1/geolocate?key=[redacted]"), "\(result.stderr)")
        #expect(result.stderr.contains("\"considerIp\":false"))
        #expect(result.stderr.contains(":xx:xx:xx"))
        #expect(!result.stderr.contains("not-a-real-wifi-key"))
        for (mac, _) in try WiFiLocationProviderTests.fixtureMACs("home.json") {
            #expect(!result.stderr.lowercased().contains(mac), "a whole MAC address in the log: \(mac)")
        }
    }

    @Test func withoutPermissionNothingIsSentAndTheCommandIsNamed() async throws {
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server, permission: nil))
        let result = try await runner.run(["where"], killAfter: .seconds(60), assembly: .onBus(service))
        #expect(result.status == 77)
        #expect(result.stderr.contains("here-weather permissions allow wifi"), "\(result.stderr)")
        #expect(server.receivedRequests.isEmpty, "no request to a third party without permission")
        let denied = try InProcessCommand()
        try denied.writeConfig(Self.config(server, permission: "deny"))
        #expect(try await denied.run(["where"], killAfter: .seconds(60), assembly: .onBus(service)).status == 77)
        #expect(server.receivedRequests.isEmpty)
    }

    @Test(arguments: [("disabled.json", "nmcli radio wifi on"), ("no-wifi-device.json", "no Wi-Fi device"),
                      ("single.json", "nothing was sent")])
    func failuresSayWhatToDo(fixture: String, advice: String) async throws {
        let service = try await NetworkManagerService.started(fixture: fixture)
        defer { service.stop() }
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        let result = try await runner.run(["where"], killAfter: .seconds(60), assembly: .onBus(service))
        #expect(result.status == 75)
        #expect(result.stderr.contains(advice), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(server.receivedRequests.isEmpty)
    }

    @Test func noSystemBusIsAClearError() async throws {
        let server = try Self.server()
        let runner = try CommandRunner()
        try runner.writeConfig(Self.config(server))
        let missing = runner.home.appendingPathComponent("no-bus").path
        let result = try await runner.run(["where"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(missing)"],
                                          killAfter: .seconds(60))
        #expect(result.status == 75)
        #expect(result.stderr.contains("system D-Bus"), "\(result.stderr)")
        #expect(server.receivedRequests.isEmpty)
    }

    @Test func doctorAndConfigShowCoverWiFi() async throws {
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try Self.server()
        let closed = try ClosedPort()
        let runner = try InProcessCommand()
        // The weather check asks a closed port on this machine, never the real service.
        try runner.writeConfig(Self.config(server) + "\n[weather.open-meteo]\nbase_url = \"\(closed.baseURL)\"\n")
        let doctor = try await runner.run(["doctor"], killAfter: .seconds(60), assembly: .onBus(service))
        let line = doctor.stdout.split(separator: "\n").first { $0.contains("wifi") } ?? ""
        #expect(line.contains("52.52437") || line.contains("52.5244"), "\(doctor.stdout)")
        #expect(line.contains("Wi-Fi via 127.0.0.1"), "\(line)")
        let shown = try await runner.run(["config", "show"])
        #expect(shown.stdout.contains("[location.wifi]"))
        #expect(shown.stdout.contains("base_url = \"\(server.baseURL)/v1/geolocate\""))
        #expect(shown.stdout.contains("key = \"[redacted]\""))
        #expect(!shown.stdout.contains("not-a-real-wifi-key"))
    }

    /// The indoor laptop: gpsd runs but its receiver has no fix, Wi-Fi answers, IP answers.
    /// The Wi-Fi fix meets 3 km and must be printed long before the deadline (60 s here, so
    /// that a loaded machine cannot blur "answered early" with "waited for the deadline").
    ///
    /// CoreLocation's rule: the first fix that meets the desired accuracy ends the request,
    /// whichever source gave it (with the older rule the chain waited for gpsd, the
    /// higher-priority source, until the deadline).
    @Test
    func theIndoorLaptopAnswersFromWiFiLongBeforeTheDeadline() async throws {
        let gpsd = try await GPSDHarness.started()
        defer { gpsd.stop() }
        gpsd.feed(Fixtures.url("nmea/no-fix.nmea"))
        let service = try await NetworkManagerService.started(fixture: "home.json")
        defer { service.stop() }
        let server = try FixtureServer.inspecting { request in
            request.target.hasPrefix("/v1/geolocate") ? .fixture("wifi/geolocate/success.json") : .fixture("ip/ipinfo/success.json")
        }
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["gpsd", "wifi", "ip"]
            timeout = 60
            [location.gpsd]
            permission = "allow"
            host = "127.0.0.1"
            port = \(gpsd.port)
            [location.wifi]
            permission = "allow"
            base_url = "\(server.baseURL)/v1/geolocate"
            [location.ip]
            permission = "allow"
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            """)
        let result = try await runner.run(["where", "--json"], killAfter: .seconds(120), assembly: .onBus(service))
        #expect(result.status == 0, "\(result.stderr)")
        let location = try #require(result.json?["location"] as? [String: Any])
        #expect(location["source"] as? String == "wifi")
        #expect(location["meets_accuracy"] as? Bool == true)
        #expect(result.elapsed < .seconds(40), "answered from Wi-Fi, not at the 60 s deadline: \(result.elapsed)")
    }

    @Test(arguments: ["home.json", "forty.json"])
    func noStateOrCacheFileHoldsAScannedMAC(fixture: String) async throws {
        let service = try await NetworkManagerService.started(fixture: fixture)
        defer { service.stop() }
        let server = try Self.server()
        let runner = try InProcessCommand()
        try runner.writeConfig(Self.config(server))
        for _ in 0..<2 {   // the second answer comes from the neighbourhood memory
            let result = try await runner.run(["where", "--json"], killAfter: .seconds(60), assembly: .onBus(service))
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(server.receivedRequests.count == 1, "the neighbourhood was remembered")
        let macs = try WiFiLocationProviderTests.fixtureMACs(fixture).map(\.mac).filter { !$0.isEmpty }
        #expect(macs.count >= 7)
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: runner.home.path)
        while let relative = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = runner.home.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { files.append(path) }
        }
        #expect(files.contains { $0.hasSuffix("/here-weather/wifi-neighbourhood.json") }, "\(files)")
        for file in files {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
            for mac in macs {
                for spelling in WiFiNeighbourhoodMemoryTests.spellings(mac) {
                    #expect(!text.contains(spelling), "\(file) holds \(spelling)")
                }
            }
        }
    }
}

extension SystemAssembly {
    /// The live system on the NetworkManager stand-in's private bus.
    static func onBus(_ service: NetworkManagerService) -> SystemAssembly {
        .test(bus: service.address)
    }
}
