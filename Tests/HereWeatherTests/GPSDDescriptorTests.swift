import Foundation
import Glibc
import Testing
import HereWeatherCore
import HereWeatherGPSD

/// How the gpsd source waits for gpsd's data: with poll() on any descriptor number (libgps's
/// `gps_waiting` uses select(), whose fd_set aborts the process for a descriptor of 1024 or
/// more), and without stalling on lines libgps already holds in its buffer.
@Suite(.serialized) struct GPSDDescriptorTests {
    /// The binary, started with descriptors 3 to 1100 open (as in a long-lived process with
    /// many files and sockets), so its connection to gpsd gets a number above 1024. Before the
    /// fix glibc killed it: "*** bit out of range 0 - FD_SETSIZE on fd_set ***", SIGABRT.
    @Test func aGPSDSocketNumberedAbove1024GetsTheFix() async throws {
        let harness = try await GPSDHarness.started()
        defer { harness.stop() }
        harness.feed(Fixtures.url("nmea/drive.nmea"))
        let runner = try CommandRunner()
        try runner.writeConfig(harness.onlySourceConfig)
        // bash, for descriptor numbers above 9; the binary inherits every one of them.
        let holdDescriptors = #"exec /bin/bash -c 'for n in $(seq 3 1100); do eval "exec $n</dev/null"; done; exec "$0" "$@"' "$0" "$@""#
        let result = try await runner.run(["where", "--json", "--timeout", "120"],
                                          setup: .init(shellPrelude: holdDescriptors))
        #expect(!result.hung, "still running after \(result.elapsed): hung")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("FD_SETSIZE"), "\(result.stderr)")
        let location = result.json?["location"] as? [String: Any]
        #expect(location?["source"] as? String == "gpsd", "\(result.stdout)")
    }

    /// A peer that sends gpsd's greeting, its device list and a fix in one burst, then nothing
    /// more. libgps reads all of it at once and hands out one line per `gps_read`: a wait on
    /// the socket alone would sit on the buffered fix until the deadline. Real gpsd cannot be
    /// made to stop after one burst, hence the fake peer.
    @Test func linesLibgpsHoldsAreReadWithoutWaitingForMore() async throws {
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyBURST","driver":"NMEA0183","activated":"2026-11-25T12:00:00.000Z","flags":1,"native":0,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
            #"{"class":"TPV","device":"/dev/ttyBURST","mode":3,"lat":27.9506,"lon":-82.4572,"altMSL":12.0,"eph":4.0}"#,
        ]
        let server = try FakeTCPPeer(.init(greeting: Array(lines.joined(separator: "\r\n").utf8) + [13, 10], closes: false))
        defer { server.stop() }
        let provider = GPSDLocationProvider(host: "127.0.0.1", port: Int(server.port), clock: ContinuousClock())
        let request = LocationRequest(desiredAccuracy: .any, timeout: .seconds(10), maxAge: nil, start: .now)
        let fix = try await provider.requestLocation(request)
        #expect(fix.coordinate.latitude == 27.9506)
        #expect(fix.coordinate.longitude == -82.4572)
        #expect(fix.mode == 3)
        #expect(fix.horizontalAccuracy == 4.0)
    }
}
