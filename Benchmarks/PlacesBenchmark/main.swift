import HereWeatherPlaces
#if canImport(Glibc)
import Glibc
#endif

// Times PlaceIndex.nearest: the first lookup of a process (what one here-weather run pays)
// and the mean over many positions near cities, anywhere on Earth and near a pole.
// Run it with scripts/benchmark-places (a release build). Figures, not a test.

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

func microseconds(_ value: Double) -> String { String(Double(Int(value * 100)) / 100) + " µs" }

/// A fixed pseudo-random sequence (a linear congruential generator), so runs compare.
struct Sequence {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(UInt64(1) << 53)
    }
}

/// Runs `count` lookups at the positions `position` makes; prints the mean time and how many were named.
func measure(_ title: String, count: Int = 100_000, _ position: (inout Sequence) -> (Double, Double)) {
    var sequence = Sequence()
    let positions = (0..<count).map { _ in position(&sequence) }
    var named = 0
    let start = now()
    for (latitude, longitude) in positions where PlaceIndex.nearest(latitude: latitude, longitude: longitude) != nil {
        named += 1
    }
    print("\(title): \(microseconds((now() - start) / Double(count))) per lookup, \(named) of \(count) named")
}

let start = now()
let first = PlaceIndex.nearest(latitude: 27.97, longitude: -82.44)
print("places compiled in: \(PlaceIndex.placeCount)")
print("first lookup in the process: \(microseconds(now() - start)) -> \(first?.text ?? "none")")
let secondStart = now()
let second = PlaceIndex.nearest(latitude: 35.68, longitude: 139.69)
print("second lookup, far away (data pages not yet touched): \(microseconds(now() - secondStart)) -> \(second?.text ?? "none")")

let cities: [(Double, Double)] = [(27.97, -82.44), (48.86, 2.35), (51.5, -0.12), (35.68, 139.69), (-33.87, 151.21),
                                  (52.52, 13.40), (40.71, -74.0), (19.43, -99.13), (28.61, 77.21), (-23.55, -46.63)]
var city = 0
measure("within 25 km of ten big cities (dense data)") { sequence in
    city = (city + 1) % cities.count
    return (cities[city].0 + (sequence.next() - 0.5) * 0.5, cities[city].1 + (sequence.next() - 0.5) * 0.5)
}
measure("anywhere on Earth (mostly open sea: the search grows to 100 km)") { sequence in
    (asin(2 * sequence.next() - 1) * 180 / Double.pi, sequence.next() * 360 - 180)
}
measure("north of 89° (every longitude is near)") { sequence in
    (89 + sequence.next(), sequence.next() * 360 - 180)
}
