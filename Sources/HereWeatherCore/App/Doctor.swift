#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `here-weather doctor`: checks each location source and the weather service, and says
/// what works and what to fix.
///
/// A source is probed only when it is permitted (nothing is sent to a third party without
/// permission); each probe gets a short deadline of its own.
public struct Doctor: Sendable {
    /// One line of the report.
    public struct Check: Sendable, Equatable {
        public enum Status: String, Sendable { case ok, warn, fail, skip }
        public var name: String
        public var status: Status
        public var detail: String

        public init(name: String, status: Status, detail: String) {
            self.name = name
            self.status = status
            self.detail = detail
        }
    }

    /// Whether a source may be probed, and if not, why (without prompting).
    public typealias PermissionCheck = @Sendable (LocationSource) -> String?

    public var providers: [any LocationSourceProvider]
    public var permission: PermissionCheck
    public var weather: any WeatherProvider
    public var units: Units
    public var probeTimeout: Duration
    /// Whether sources absent from this machine are skipped, as the zero-config chain does.
    public var skipsAbsentSources: Bool
    /// The run's clock: each probe's deadline starts on it.
    public var clock: any RunClock
    /// What the run remembers about a source once it was probed (GeoClue without an agent),
    /// added to its line.
    public var remembered: @Sendable (LocationSource) -> String? = { _ in nil }
    /// The NWS alerts request reports make for a US point, checked beside the weather
    /// (`ProviderFactory.officialAlerts`); `nil` when reports make none.
    public var officialAlerts: OfficialAlerts?
    /// The air quality request reports make beside the weather (`[air_quality]`); `nil` when off.
    public var airQuality: AirQualityFetcher?
    /// The warnings sources outside the US that reports ask (`[alerts]`), national ones first.
    public var regionalAlerts: [any AlertSource] = []

    public init(providers: [any LocationSourceProvider], permission: @escaping PermissionCheck,
                weather: any WeatherProvider, units: Units, probeTimeout: Duration = .seconds(5),
                skipsAbsentSources: Bool = false, clock: any RunClock) {
        self.providers = providers
        self.clock = clock
        self.skipsAbsentSources = skipsAbsentSources
        self.permission = permission
        self.weather = weather
        self.units = units
        self.probeTimeout = probeTimeout
    }

    /// Runs every check: the sources together, then the weather service for the best location.
    public func run() async -> [Check] {
        let request = LocationRequest(desiredAccuracy: .any, timeout: probeTimeout, maxAge: nil, start: clock.now)
        var checks: [Check] = []
        var found: Location?
        let providers = self.providers
        let skipsAbsent = skipsAbsentSources
        let present = await Concurrently.run(providers.count) { index in
            if !skipsAbsent { return true }
            return await providers[index].isPresent()
        }
        let permitted = providers.map { permission($0.source) == nil }
        let results = await Concurrently.run(providers.count) { index -> Result<Location, Error>? in
            guard permitted[index], present[index] == true else { return nil }
            do { return .success(try await providers[index].requestLocation(request)) } catch { return .failure(error) }
        }
        for (index, provider) in providers.enumerated() {
            let name = provider.source.rawValue
            if present[index] != true {
                checks.append(Check(name: name, status: .skip, detail: "not found on this machine"))
                continue
            }
            if let refusal = permission(provider.source) {
                checks.append(Check(name: name, status: .skip, detail: refusal))
                continue
            }
            // The library the source read through (gpsd: which libgps), once it was probed.
            let library = provider.libraryNote.map { "; " + $0 } ?? ""
            switch results[index] ?? nil {
            case .success(let fix):
                found = found ?? fix
                // The coordinate once: a fixed place without a name is its coordinate.
                let coordinate = Formatting.coordinate(fix.coordinate)
                let provenance = Provenance.text(fix, now: clock.date)
                checks.append(Check(name: name, status: .ok,
                                    detail: (provenance.contains(coordinate) ? provenance : coordinate + " (" + provenance + ")") + library))
            case .failure(let error):
                let message = (error as? any UserFacingError)?.message ?? "\(error)"
                checks.append(Check(name: name, status: .fail,
                                    detail: message + (remembered(provider.source).map { " " + $0 } ?? "") + library))
            case nil:
                checks.append(Check(name: name, status: .fail, detail: "no answer"))
            }
        }
        async let weatherLine = weatherCheck(at: found)
        async let alertsLine = alertsCheck(at: found)
        async let regionalLine = regionalAlertsCheck(at: found)
        async let airLine = airQualityCheck(at: found)
        checks.append(await weatherLine)
        if let line = await alertsLine { checks.append(line) }
        if let line = await regionalLine { checks.append(line) }
        if let line = await airLine { checks.append(line) }
        return checks
    }

    func weatherCheck(at location: Location?) async -> Check {
        let name = weather.kind.rawValue
        let coordinate = location?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
        let query = WeatherQuery(coordinate: coordinate, units: units, deadline: clock.deadline(after: probeTimeout))
        do {
            let report = try await weather.report(for: query)
            let place = location == nil ? "for 0°, 0° (no location to ask for)" : "for " + Formatting.coordinate(coordinate)
            let temperature = report.current.temperature.map { ", " + Formatting.fixed($0, 1) + " " + units.temperatureSymbol } ?? ""
            return Check(name: name, status: location == nil ? .warn : .ok,
                         detail: "\(weather.kind.displayName) answered \(place)\(temperature)")
        } catch {
            return Check(name: name, status: .fail, detail: (error as? any UserFacingError)?.message ?? "\(error)")
        }
    }

    /// The report as aligned text that fits `width` columns (the report's width rule:
    /// `COLUMNS`, else the terminal's, else 80): a long detail is wrapped under itself, so the
    /// name and status columns stay clear. Every character is in `charset` (details are
    /// folded before they are wrapped).
    public static func render(_ checks: [Check], width: Int = TerminalWidth.standard, charset: TextCharset = .utf8) -> String {
        let nameWidth = checks.map { TextWidth.columns($0.name) }.max() ?? 0
        let indent = nameWidth + 2 + 4 + 2
        let room = max(TerminalWidth.minimum - indent, width - indent)
        return checks.flatMap { check in
            let lines = wrapKeepingWords(charset.fold(check.detail), room)
            let first = TextWidth.pad(check.name, nameWidth) + "  " + TextWidth.pad(check.status.rawValue.uppercased(), 4) + "  "
            return [(first + (lines.first ?? "")).trimmingSuffixSpaces]
                + lines.dropFirst().map { String(repeating: " ", count: indent) + $0 }
        }.joined(separator: "\n")
    }

    /// `text` wrapped at spaces into lines of at most `width` columns, where a word longer than
    /// a line (a path, a command) stands whole on a line of its own: advice that is cut is
    /// advice that cannot be followed.
    static func wrapKeepingWords(_ text: String, _ width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            if !line.isEmpty, TextWidth.columns(line) + 1 + TextWidth.columns(word) <= width {
                line += " " + word
            } else {
                if !line.isEmpty { lines.append(line) }
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The report as one JSON object on one line, for scripts:
    /// `{"ok":false,"checks":[{"name":"config","status":"ok","detail":"..."}]}`.
    public static func json(_ checks: [Check]) -> String {
        JSONOutput.object([
            ("ok", .bool(!checks.contains { $0.status == .fail })),
            ("checks", .array(checks.map { check in
                .object([("name", .string(check.name)), ("status", .string(check.status.rawValue)), ("detail", .string(check.detail))])
            })),
        ]).serialized()
    }
}
