import FuzzSupport
import HereWeatherCore

/// A geocoding service's answer to a city search (`--city`), through the public geocoders
/// (status handling, JSON, the service's decoder) and `CityQuery`'s pick. The first byte
/// chooses the service (even: Open-Meteo, odd: OpenWeatherMap) and the status (`statuses`,
/// by the value divided by 2); the rest is the body. Every place must be on the globe; an
/// error one line, without the API key.
let statuses = [200, 200, 200, 200, 429, 401, 500, 404]
let query = CityQuery("Melbourne, AU")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let first = input.bytes.first, let (openMeteo, body) = input.split(choosingFrom: [true, false]) else { return 0 }
    let status = statuses[Int(first) / 2 % statuses.count]
    let http = CannedHTTPClient(HTTPResponse(status: status, body: body))
    let geocoder: any Geocoder = openMeteo
        ? OpenMeteoGeocoder(http: http)
        : OpenWeatherMapGeocoder(baseURL: "https://api.openweathermap.org", apiKey: ErrorChecks.secret, http: http)
    switch waitFor({ try await geocoder.search(query, deadline: .now + .seconds(10)) }) {
    case .success(let places):
        for place in places {
            require((-90...90).contains(place.coordinate.latitude), "latitude \(place.coordinate.latitude)")
            require((-180...180).contains(place.coordinate.longitude), "longitude \(place.coordinate.longitude)")
            requirePlainText(place.displayName, "a place name")
        }
        _ = query.pick(from: places)
    case .failure(let error):
        ErrorChecks.check(error)
    }
    return 0
}
