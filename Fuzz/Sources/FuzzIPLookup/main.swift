import FuzzSupport
import HereWeatherCore

/// An IP-lookup service's answer, through `IPLocationProvider` (status handling, JSON, the
/// service's decoder, the accuracy judgement). The first byte chooses the service (its value
/// modulo 4, in `services` order) and the status (`statuses`, by the value divided by 4);
/// the rest is the body. A location must be on the globe; an error one line, without the
/// ipinfo token.
let services: [IPService] = [.ipinfo, .ipwhois, .ipapi, .ipApiCom]
let statuses = [200, 200, 200, 200, 429, 403, 500, 404]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let first = input.bytes.first, let (service, body) = input.split(choosingFrom: services) else { return 0 }
    var settings = IPSettings()
    settings.services = [service]
    settings.settings[service] = IPServiceSettings(service, token: ErrorChecks.secret, allowPlainHTTP: true)
    let status = statuses[Int(first) / services.count % statuses.count]
    let http = CannedHTTPClient(HTTPResponse(status: status, headers: ["retry-after": "60"], body: body))
    let provider = IPLocationProvider(settings: settings, http: http, clock: ContinuousClock())
    switch waitFor({ try await provider.requestLocation(LocationRequest(start: .now)) }) {
    case .success(let location):
        require(status == 200, "a location from an HTTP \(status) answer")
        LocationChecks.check(location)
    case .failure(let error):
        ErrorChecks.check(error)
    }
    return 0
}
