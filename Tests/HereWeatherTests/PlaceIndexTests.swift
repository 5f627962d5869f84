import Foundation
import Testing
import HereWeatherCore
@testable import HereWeatherPlaces

/// The offline place names: GeoNames' populated places compiled in, looked up by position.
@Suite struct PlaceIndexTests {
    @Test(arguments: [
        (27.97, -82.44, "near Tampa, Florida, US (3 km NE)"),
        (-33.8688, 151.2093, "near Sydney, New South Wales, AU"),   // within 1 km: no distance
        (51.5074, -0.1278, "near London, England, GB"),
        (59.9139, 10.7522, "near Oslo, NO"),                        // the region repeats the name
        (78.2, 15.6, "near Longyearbyen, Svalbard, SJ (3 km S)"),
        (-54.8, -68.3, "near Ushuaia, Tierra del Fuego, AR (2 km NE)"),
    ])
    func knownCoordinatesNameKnownPlaces(latitude: Double, longitude: Double, text: String) throws {
        let place = try #require(PlaceIndex.nearest(latitude: latitude, longitude: longitude))
        #expect(place.text == text)
    }

    @Test func thePlaceCarriesItsRegionCountryDistanceAndBearing() throws {
        let tampa = try #require(PlaceIndex.nearest(latitude: 27.97, longitude: -82.44))
        #expect(tampa.name == "Tampa")
        #expect(tampa.region == "Florida")
        #expect(tampa.countryCode == "US")
        #expect(abs(tampa.latitude - 27.9475) < 0.0001 && abs(tampa.longitude - -82.4584) < 0.0001)
        #expect(abs(tampa.distance - 3086) < 5)
        #expect(abs(tampa.bearing - 36) < 1)
        #expect(tampa.title == "Tampa, Florida, US")
    }

    @Test func namesWithAccentsAndSpacesComeBackWhole() throws {
        let place = try #require(PlaceIndex.nearest(latitude: 42.4637, longitude: 1.4913))
        #expect(place.name == "Sant Julià de Lòria")
        #expect(place.countryCode == "AD")
    }

    @Test func placesAcrossTheAntimeridianAreFound() throws {
        // East of 180° the nearest town is west of it, and the other way round.
        let chukotka = try #require(PlaceIndex.nearest(latitude: 65.7, longitude: 179.9))
        #expect(chukotka.name == "Egvekinot")
        #expect(chukotka.longitude < -179)
        #expect(abs(chukotka.distance - 82_286) < 200)
        #expect(chukotka.compassPoint == "SW")
        let fiji = try #require(PlaceIndex.nearest(latitude: -16.8, longitude: -179.99))
        #expect(fiji.name == "Labasa" && fiji.countryCode == "FJ")
        #expect(fiji.longitude > 179)
        // 180, -180 and 540 are one meridian.
        let names = [180.0, -180.0, 540.0].map { PlaceIndex.nearest(latitude: -16.8, longitude: $0)?.name }
        #expect(names == ["Labasa", "Labasa", "Labasa"])
    }

    @Test func atThePolesEveryLongitudeIsTheSamePlace() throws {
        // Nothing within 100 km of either pole.
        #expect(PlaceIndex.nearest(latitude: 90, longitude: 0) == nil)
        #expect(PlaceIndex.nearest(latitude: -90, longitude: 0) == nil)
        #expect(PlaceIndex.nearest(latitude: 89.9, longitude: -135) == nil)
        // With a wider radius, the nearest town to the pole, whatever the longitude given.
        for longitude in [-180.0, -90, 0, 45, 179.99] {
            let north = try #require(PlaceIndex.nearest(latitude: 90, longitude: longitude, within: 2_000_000))
            #expect(north.name == "Longyearbyen")
            #expect(abs(north.distance - 1_309_507) < 500)
            #expect(north.compassPoint == "N")
            let south = try #require(PlaceIndex.nearest(latitude: -90, longitude: longitude, within: 5_000_000))
            #expect(south.name == "Puerto Williams")
            #expect(south.compassPoint == "S")
        }
        let nearPole = try #require(PlaceIndex.nearest(latitude: 89.5, longitude: 170, within: 2_000_000))
        #expect(nearPole.name == "Longyearbyen")
    }

    @Test(arguments: [(0.0, -30.0), (30, -40), (-40, -120), (10, 170)])
    func theOpenSeaHasNoName(latitude: Double, longitude: Double) {
        #expect(PlaceIndex.nearest(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func theRadiusBoundsTheAnswer() throws {
        // Fernando de Noronha is 504 km from (0, -30).
        #expect(PlaceIndex.nearest(latitude: 0, longitude: -30, within: 500_000) == nil)
        let island = try #require(PlaceIndex.nearest(latitude: 0, longitude: -30, within: 510_000))
        #expect(island.countryCode == "BR")
        #expect(PlaceIndex.nearest(latitude: 27.97, longitude: -82.44, within: 3000) == nil)
    }

    @Test(arguments: [(Double.nan, 0.0), (0, .infinity), (90.5, 0), (-91, 10)])
    func positionsNotOnEarthHaveNoName(latitude: Double, longitude: Double) {
        #expect(PlaceIndex.nearest(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func theIndexAgreesWithLookingAtEveryPlace() async throws {
        // Positions near the antimeridian, the poles and at random; a brute-force scan of all
        // records is the reference. On a thread of its own: it is CPU work of a second or so.
        var state: UInt64 = 12_345
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
        var positions: [(Double, Double)] = [(65.7, 179.95), (65.7, -179.95), (-16.5, 180), (70, 0), (-60, 100)]
        for _ in 0..<40 { positions.append((asin(2 * random() - 1) * 180 / Double.pi, random() * 360 - 180)) }
        let radius = 800_000.0
        let checked = positions
        let mismatches = try await BlockingCall.run { () -> Result<[String], Error> in
            .success(checked.compactMap { latitude, longitude -> String? in
                let found = PlaceIndex.nearest(latitude: latitude, longitude: longitude, within: radius)
                let expected = Self.bruteForceNearest(latitude, longitude, within: radius)
                // Ties (two places at one point) may pick either: compare distances.
                guard found?.distance.rounded() != expected?.distance.rounded() else { return nil }
                return "(\(latitude), \(longitude)): \(found?.text ?? "none") vs \(expected?.text ?? "none")"
            })
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    static func bruteForceNearest(_ latitude: Double, _ longitude: Double, within radius: Double) -> NearbyPlace? {
        var best: PlaceIndex.Candidate?
        var bestDistance = Double.infinity
        for band in 0..<GeoNamesData.bandCount {
            for index in PlaceIndex.bandStart(band)..<PlaceIndex.bandStart(band + 1) {
                let record = PlaceIndex.record(index)
                let distance = Geodesy.distance(PlaceIndex.placeLatitude(record, band: band),
                                                PlaceIndex.decoded(PlaceIndex.number(record, 4)) - 180, latitude, longitude)
                if distance <= radius && distance < bestDistance {
                    (best, bestDistance) = (PlaceIndex.Candidate(index: index, band: band, haversine: 0), distance)
                }
            }
        }
        return best.map { PlaceIndex.place($0, latitude: latitude, longitude: longitude) }
    }

    @Test func theCompiledInDataIsWellFormed() {
        #expect(PlaceIndex.placeCount > 100_000)
        #expect(PlaceIndex.bandStart(0) == 0)
        #expect(PlaceIndex.bandStart(GeoNamesData.bandCount) == GeoNamesData.placeCount)
        // One name a record, and the kept name offsets point at the start of a line.
        let names = UnsafeBufferPointer(start: GeoNamesData.names.utf8Start, count: GeoNamesData.names.utf8CodeUnitCount)
        #expect(names.count { $0 == 0x0A } == GeoNamesData.placeCount)
        #expect(names.last == 0x0A)
        let regionCount = GeoNamesData.regionStarts.utf8CodeUnitCount / 3
        var problems: [String] = []
        for band in 0..<GeoNamesData.bandCount {
            var previousLongitude = -1
            for index in PlaceIndex.bandStart(band)..<PlaceIndex.bandStart(band + 1) {
                let record = PlaceIndex.record(index)
                let longitude = PlaceIndex.number(record, 4), aboveBand = PlaceIndex.number(record + 4, 2)
                if longitude < previousLongitude { problems.append("record \(index) out of order") }
                if aboveBand > GeoNamesData.bandUnits { problems.append("record \(index) outside its band") }
                if PlaceIndex.number(record + 6, 2) >= regionCount { problems.append("record \(index): no such region") }
                previousLongitude = longitude
                let offset = PlaceIndex.nameOffset(index)
                if offset >= names.count || (offset > 0 && names[offset - 1] != 0x0A) {
                    problems.append("record \(index): name offset \(offset)")
                }
                guard index % 97 == 0 else { continue }
                let place = PlaceIndex.place(PlaceIndex.Candidate(index: index, band: band, haversine: 0), latitude: 0, longitude: 0)
                if place.name.isEmpty || place.countryCode.count != 2 || !(-180..<180).contains(place.longitude) {
                    problems.append("record \(index): \(place)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}

/// The place text and the geometry behind it.
@Suite struct NearbyPlaceTests {
    func place(distance: Double, bearing: Double, region: String? = "Florida", name: String = "Tampa") -> NearbyPlace {
        NearbyPlace(name: name, region: region, countryCode: "US", latitude: 27.9, longitude: -82.4,
                    distance: distance, bearing: bearing)
    }

    @Test func textSaysNearWithDistanceAndDirection() {
        #expect(place(distance: 3086, bearing: 36).text == "near Tampa, Florida, US (3 km NE)")
        #expect(place(distance: 999, bearing: 36).text == "near Tampa, Florida, US")
        #expect(place(distance: 1000, bearing: 200).text == "near Tampa, Florida, US (1 km S)")
        #expect(place(distance: 87_600, bearing: 290).text == "near Tampa, Florida, US (88 km W)")
        #expect(place(distance: 5000, bearing: 0, region: nil).text == "near Tampa, US (5 km N)")
        #expect(place(distance: 5000, bearing: 0, region: "Tampa").title == "Tampa, US")
    }

    @Test(arguments: [(0.0, "N"), (22.4, "N"), (22.6, "NE"), (90, "E"), (135, "SE"), (180, "S"),
                      (225, "SW"), (270, "W"), (315, "NW"), (337.6, "N"), (359.9, "N"), (-45, "NW"), (405, "NE")])
    func compassPointsHaveEightDirections(degrees: Double, point: String) {
        #expect(Geodesy.compassPoint(degrees) == point)
    }

    @Test func haversineDistancesAndBearings() {
        // One degree of latitude on the mean sphere; a quarter of the equator.
        #expect(abs(Geodesy.distance(0, 0, 1, 0) - 111_195) < 1)
        #expect(abs(Geodesy.distance(0, 0, 0, 90) - 10_007_557) < 10)
        #expect(abs(Geodesy.distance(0, 179.5, 0, -179.5) - 111_195) < 1)
        #expect(abs(Geodesy.bearing(0, 0, 1, 0)) < 1e-9)
        #expect(abs(Geodesy.bearing(0, 0, 0, 1) - 90) < 1e-9)
        #expect(abs(Geodesy.bearing(0, 179.5, 0, -179.5) - 90) < 1e-9)   // east, across 180°
        #expect(abs(Geodesy.bearing(10, 0, 0, 0) - 180) < 1e-9)
    }
}
