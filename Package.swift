// swift-tools-version: 6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// How the command is linked (the figures: docs, "Binary size, memory and start-up"):
/// - lld, the toolchain's own linker, instead of the system's gold, for
/// - `-z pack-relative-relocs`: the ~40,000 relative relocations (Swift metadata pointers) as a
///   compact RELR table (glibc 2.36+) instead of 24-byte RELA entries: 1 MB less to install,
///   map and read at every start;
/// - `--no-export-dynamic`: swiftc exports every symbol of a program for backtraces; nothing
///   loads this one as a library, and the table costs 0.4 MB;
/// - `--symbol-ordering-file`: the functions ordinary runs execute, together at the start of the
///   code (scripts/order-functions writes the list), so a run maps 1.5 MB less of the program.
///   Names no longer in the program are skipped, silently.
let leanLinking = [
    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/here-weather/hot-functions.order",
    "-Xlinker", "--no-warn-symbol-ordering",
]

/// How this package's Swift code is compiled: one section per function, so the linker can drop
/// the functions nothing calls (`--gc-sections`) and lay out the hot ones together (above).
let ownCode: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"])]

let package = Package(
    name: "here-weather",
    products: [
        .executable(name: "here-weather", targets: ["here-weather"]),
        // The core as a library, for the fuzz targets in Fuzz/ (a package of their own); the
        // D-Bus and Wi-Fi targets too, whose decoders of NetworkManager's and GeoClue's values are fuzzed.
        .library(name: "HereWeatherCore", targets: ["HereWeatherCore"]),
        .library(name: "HereWeatherDBus", targets: ["HereWeatherDBus"]),
        .library(name: "HereWeatherWiFi", targets: ["HereWeatherWiFi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries, each wrapped by exactly one Swift target.
        // libgps without its headers: any version from gpsd 3.22 to 3.27, opened on first use and
        // driven through an opaque handle (see CGPS/shim.h), so building needs no libgps-dev and
        // runs that do not ask gpsd never load it.
        .systemLibrary(name: "CGPS"),
        // libcurl's headers only: the library is opened on first use (see CCurl/shim.h), so
        // runs that make no web request never load it.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // sd-bus's headers only: libsystemd is opened on first use (see CDBus/shim.h), so
        // runs that ask no D-Bus service never load it.
        .systemLibrary(
            name: "CDBus",
            providers: [.apt(["libsystemd-dev"])]
        ),

        // Linux's timerfd, which Swift's Glibc module leaves out (headers only).
        .systemLibrary(name: "CTimerFD"),
        // The program's executors for Swift concurrency: a thread pool and a main-thread loop
        // that wake only for work (Dispatch's own wake every second once used; issue 31).
        .target(name: "HereWeatherExecutors", dependencies: ["CTimerFD"], swiftSettings: ownCode),

        // Offline place names: GeoNames' populated places compiled in (a generated source file).
        .target(name: "HereWeatherPlaces", exclude: ["README.md"], swiftSettings: ownCode),

        // The tested core: locations, weather, config, output. No C module leaks in here.
        .target(name: "HereWeatherCore", dependencies: ["HereWeatherPlaces"], swiftSettings: ownCode),
        // The HTTP client (libcurl) behind the core's `HTTPClient` protocol.
        .target(name: "HereWeatherHTTP", dependencies: ["HereWeatherCore", "CCurl"], swiftSettings: ownCode),
        // gpsd through libgps; the only target that imports CGPS.
        .target(name: "HereWeatherGPSD", dependencies: ["HereWeatherCore", "CGPS"], swiftSettings: ownCode),
        // D-Bus through sd-bus; the only target that imports CDBus.
        .target(name: "HereWeatherDBus", dependencies: ["HereWeatherCore", "CDBus"], swiftSettings: ownCode),
        // The Wi-Fi access points from NetworkManager, over D-Bus.
        .target(name: "HereWeatherWiFi", dependencies: ["HereWeatherCore", "HereWeatherDBus"], swiftSettings: ownCode),

        // The command-line logic (commands, options, output, terminal) as a library: it writes
        // through the sinks of a `CommandContext`, so tests run it in-process.
        .target(
            name: "HereWeatherCLI",
            dependencies: [
                "HereWeatherCore", "HereWeatherHTTP", "HereWeatherGPSD", "HereWeatherDBus", "HereWeatherWiFi",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: ownCode
        ),
        // The executable: a few lines that run HereWeatherCLI with the process's context.
        .executableTarget(
            name: "here-weather",
            dependencies: ["HereWeatherCLI", "HereWeatherExecutors"],
            exclude: ["hot-functions.order"],
            swiftSettings: ownCode,
            linkerSettings: [.unsafeFlags(leanLinking)]
        ),

        // Prints how long a place-name lookup takes (scripts/benchmark-places).
        .executableTarget(name: "places-benchmark", dependencies: ["HereWeatherPlaces"], path: "Benchmarks/PlacesBenchmark"),

        .testTarget(
            name: "HereWeatherTests",
            dependencies: ["HereWeatherCLI", "HereWeatherCore", "HereWeatherHTTP", "HereWeatherGPSD", "HereWeatherDBus", "HereWeatherWiFi", "HereWeatherPlaces",
                           "HereWeatherExecutors"]
        ),
    ]
)
