import Foundation
import Testing
@testable import HereWeatherCore

/// NWS alerts are asked only for points in the US and its territories: the boxes take in
/// Canadian and Mexican cities and the Bahamas, which the nearest place's country (offline,
/// GeoNames) leaves out (issue 35 B7).
@Suite struct USRegionTests {
    static let outside: [(String, Double, Double)] = [
        ("Toronto", 43.6532, -79.3832), ("Montreal", 45.5017, -73.5673), ("Vancouver", 49.2827, -123.1207),
        ("Monterrey", 25.6866, -100.3161), ("Tijuana", 32.5149, -117.0382), ("Nassau", 25.0443, -77.3504),
        ("Ciudad Juárez", 31.6904, -106.4245), ("Victoria", 48.4284, -123.3656), ("Mexicali", 32.6245, -115.4523),
    ]
    // Not here: Windsor, Ontario (42.3149, -83.0364), whose centre is nearer Detroit's GeoNames
    // point than Windsor's own: the nearest place decides within a few km of a border, and a
    // boundary polygon (US Census cartographic boundaries) would be needed there.

    static let inside: [(String, Double, Double)] = [
        ("Detroit", 42.3314, -83.0458), ("El Paso", 31.7619, -106.4850), ("San Diego", 32.7157, -117.1611),
        ("Key West", 24.5551, -81.7800), ("Point Roberts", 48.9854, -123.0779), ("Honolulu", 21.3069, -157.8583),
        ("San Juan", 18.4655, -66.1057), ("Guam", 13.4443, 144.7937), ("Anchorage", 61.2181, -149.9003),
    ]

    @Test(arguments: outside)
    func aPointOutsideTheUSIsNotSentToTheNWS(_ city: String, _ latitude: Double, _ longitude: Double) {
        let point = Coordinate(latitude: latitude, longitude: longitude)
        #expect(USRegion.mayContain(point) || city == "Victoria", "\(city) is in the boxes: the test needs them")
        #expect(!USRegion.contains(point), "\(city)")
    }

    @Test(arguments: inside)
    func aPointInTheUSIs(_ city: String, _ latitude: Double, _ longitude: Double) {
        #expect(USRegion.contains(Coordinate(latitude: latitude, longitude: longitude)), "\(city)")
    }

    /// Through the provider: Open-Meteo at Toronto asks the weather only, at Detroit the alerts too.
    @Test func openMeteoAtTorontoAsksNoAlerts() async throws {
        let server = try FixtureServer(routes: ["/v1/forecast": .fixture("weather/open-meteo/tampa-metric.json"),
                                                "/alerts/active": .fixture("weather/nws/alerts-none.json")])
        for (latitude, longitude, asked) in [(43.6532, -79.3832, false), (42.3314, -83.0458, true)] {
            let runner = try InProcessCommand()
            try runner.writeConfig("version = 1\n[weather.open-meteo]\nbase_url = \"\(server.baseURL)\"\n[weather.nws]\nbase_url = \"\(server.baseURL)\"\n")
            let before = server.requests.filter { $0.hasPrefix("/alerts/") }.count
            let result = try await runner.run(["--lat", "\(latitude)", "--lon", "\(longitude)", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests.filter { $0.hasPrefix("/alerts/") }.count == before + (asked ? 1 : 0), "\(latitude),\(longitude)")
        }
    }
}
