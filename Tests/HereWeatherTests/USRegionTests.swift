import Foundation
import Testing
@testable import HereWeatherCore
import HereWeatherPlaces

/// NWS alerts are asked only for points in the US and its territories: the boxes take in
/// Canadian and Mexican cities and the Bahamas, which the land's country near a border
/// (Natural Earth) and elsewhere the nearest place's (GeoNames) leave out (issue 35 B7).
@Suite struct USRegionTests {
    static let outside: [(String, Double, Double)] = [
        ("Toronto", 43.6532, -79.3832), ("Montreal", 45.5017, -73.5673), ("Vancouver", 49.2827, -123.1207),
        ("Monterrey", 25.6866, -100.3161), ("Tijuana", 32.5149, -117.0382), ("Nassau", 25.0443, -77.3504),
        ("Ciudad Juárez", 31.6904, -106.4245), ("Victoria", 48.4284, -123.3656), ("Mexicali", 32.6245, -115.4523),
        // Border crossings, the Canadian or Mexican side: Windsor's centre is nearer Detroit's
        // GeoNames point than Windsor's own, so only the boundary tells them apart.
        ("Windsor, Ontario", 42.3149, -83.0364), ("Niagara Falls, Ontario", 43.0896, -79.0849),
        ("Sarnia", 42.9745, -82.4066), ("Fort Erie", 42.9018, -78.9722), ("Sault Ste. Marie, Ontario", 46.5219, -84.3461),
        ("White Rock", 49.0253, -122.8026), ("Stanstead", 45.0156, -72.0981), ("Prescott", 44.7120, -75.5146),
        ("Nuevo Laredo", 27.4763, -99.5164), ("Nogales, Sonora", 31.3086, -110.9422), ("Matamoros", 25.8690, -97.5027),
        ("Tortola", 18.4207, -64.6399), ("Bimini", 25.7260, -79.2960),
    ]

    static let inside: [(String, Double, Double)] = [
        ("Detroit", 42.3314, -83.0458), ("El Paso", 31.7619, -106.4850), ("San Diego", 32.7157, -117.1611),
        ("Key West", 24.5551, -81.7800), ("Point Roberts", 48.9854, -123.0779), ("Honolulu", 21.3069, -157.8583),
        ("San Juan", 18.4655, -66.1057), ("Guam", 13.4443, 144.7937), ("Anchorage", 61.2181, -149.9003),
        // Border crossings, the US side. Blaine and Point Roberts lie within 1.5 km of the 49th
        // parallel, which Natural Earth draws 830 m too far south (the script moves it back).
        ("Niagara Falls, New York", 43.0962, -79.0377), ("Buffalo", 42.8864, -78.8784), ("Port Huron", 42.9709, -82.4249),
        ("Sault Ste. Marie, Michigan", 46.4953, -84.3453), ("Blaine", 48.9937, -122.7471), ("Derby Line", 45.0059, -72.0990),
        ("Ogdensburg", 44.6942, -75.4863), ("Calexico", 32.6789, -115.4989), ("Nogales, Arizona", 31.3404, -110.9343),
        ("Laredo", 27.5306, -99.4803), ("Brownsville", 25.9017, -97.4975), ("San Ysidro", 32.5550, -117.0430),
        ("Charlotte Amalie", 18.3419, -64.9307), ("Saipan", 15.1850, 145.7467), ("Pago Pago", -14.2756, -170.7020),
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

    /// The boundary decides where the nearest place would not: Windsor's nearest place is Detroit.
    @Test func windsorIsCanadianLandThoughDetroitIsItsNearestPlace() throws {
        let place = try #require(PlaceIndex.nearest(latitude: 42.3149, longitude: -83.0364))
        #expect(place.countryCode == "US")
        #expect(USBoundary.land(latitude: 42.3149, longitude: -83.0364) == .anotherCountry)
        #expect(USBoundary.land(latitude: 42.3314, longitude: -83.0458) == .unitedStates)
    }

    /// The Great Lakes are split where the boundary runs through them, as Natural Earth's
    /// countries hold them; the sea, and land far from any border, are left to the nearest place.
    @Test func lakesAreSplitAndTheRestIsLeftToTheNearestPlace() {
        #expect(USBoundary.land(latitude: 42.2, longitude: -81.2) == .unitedStates, "Lake Erie off Erie, Pennsylvania")
        #expect(USBoundary.land(latitude: 42.6, longitude: -81.0) == .anotherCountry, "Lake Erie off Port Stanley, Ontario")
        #expect(!USRegion.contains(Coordinate(latitude: 42.6, longitude: -81.0)))
        #expect(USBoundary.land(latitude: 38.5, longitude: -98.0) == nil, "Kansas")
        #expect(USBoundary.land(latitude: 24.3, longitude: -81.8) == nil, "the sea off Key West")
        #expect(USRegion.contains(Coordinate(latitude: 38.5, longitude: -98.0)))
        #expect(USRegion.contains(Coordinate(latitude: 24.3, longitude: -81.8)))
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
