// swift-tools-version:5.4
// libFuzzer targets for here-weather's parsers and decoders (README: "Fuzzing").
//
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM renames an executable's entry point
// (`<target>_main`) and links `main` to it, which leaves nothing for libFuzzer's own `main`
// to replace under `-parse-as-library`.
//
// A package of its own, like swift-protobuf's FuzzTesting: the sanitizer flags are given on
// the command line (`scripts/fuzz` builds it), so they reach HereWeatherCore but never the
// main package's executables, which this package does not build.
import PackageDescription

/// One executable per fuzz target, each with one `LLVMFuzzerTestOneInput`.
let targets = [
    "FuzzJSON", "FuzzNMEA", "FuzzConfig",
    "FuzzOpenMeteo", "FuzzOpenWeatherMap", "FuzzOneCall", "FuzzMetNorway", "FuzzMetNorwayNowcast", "FuzzPirateWeather",
    "FuzzNWS", "FuzzNWSAlerts", "FuzzAirQuality", "FuzzMetAlerts", "FuzzDWD", "FuzzMeteoAlarm",
    "FuzzIPLookup", "FuzzGeocoding",
    "FuzzGeolocate", "FuzzCacheEntry", "FuzzRememberedLocation", "FuzzDecisions",
]

/// Targets that also fuzz the D-Bus decoders (NetworkManager, GeoClue).
let dbusTargets = ["FuzzDBusValues"]

let package = Package(
    name: "here-weather-fuzz",
    dependencies: [
        .package(name: "here-weather", path: ".."),
    ],
    targets: [
        // What the targets share: invariant checks, a canned HTTP answer, waiting for async calls.
        .target(name: "FuzzSupport", dependencies: [.product(name: "HereWeatherCore", package: "here-weather")]),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport", .product(name: "HereWeatherCore", package: "here-weather"),
        ])
    } + dbusTargets.map { name in
        .executableTarget(name: name, dependencies: [
            "FuzzSupport", .product(name: "HereWeatherCore", package: "here-weather"),
            .product(name: "HereWeatherDBus", package: "here-weather"),
            .product(name: "HereWeatherWiFi", package: "here-weather"),
        ])
    }
)
