import FuzzSupport
import HereWeatherCore

/// A Wi-Fi geolocate service's answer, through `WiFiLocationProvider` (status handling, JSON,
/// the answer's rules) with two usable access points. The first byte chooses the status
/// (`statuses`); the rest is the body. A location must be on the globe with a finite,
/// positive accuracy of at most half the Earth's circumference; an error one line, without
/// the key.
let statuses = [200, 200, 200, 200, 429, 403, 500, 404, 400, 307]

struct TwoAccessPoints: AccessPointScanner {
    func isPresent() async -> Bool { true }
    func accessPoints(deadline: ContinuousClock.Instant) async throws -> [AccessPoint] {
        [AccessPoint(macAddress: "f4:94:5f:76:4b:73", ssid: Array("Cafe".utf8), strength: 80, frequency: 2412, age: 1000),
         AccessPoint(macAddress: "74:42:24:6d:96:0f", ssid: Array("Cafe 5G".utf8), strength: 70, frequency: 5180, age: 1000)]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (status, body) = FuzzInput(data, size).split(choosingFrom: statuses) else { return 0 }
    let http = CannedHTTPClient(HTTPResponse(status: status, headers: ["location": "https://elsewhere.example/x"], body: body))
    let provider = WiFiLocationProvider(settings: WiFiSettings(baseURL: "https://geo.example/v1/geolocate", key: ErrorChecks.secret),
                                        scanner: TwoAccessPoints(), http: http, memory: nil, clock: ContinuousClock())
    switch waitFor({ try await provider.requestLocation(LocationRequest(timeout: .seconds(10), maxAge: nil, start: .now)) }) {
    case .success(let location):
        LocationChecks.check(location)
        require((location.horizontalAccuracy ?? 0) <= 20_000_000, "accuracy \(location.horizontalAccuracy ?? 0)")
    case .failure(let error):
        ErrorChecks.check(error)
    }
    return 0
}
