/// The effective configuration: the file's values over the defaults.
///
/// Versioned: `version = 1` is the only version so far. Every key has a default, so a
/// missing file means defaults.
public struct Configuration: Sendable, Equatable {
    public var version = 1
    public var location = LocationSettings()
    public var weather = WeatherSettings()
    public var privacy = PrivacySettings()
    public var output = OutputSettings()
    public var cache = CacheSettings()
    public var alerts = AlertSettings()
    public var airQuality = AirQualitySettings()

    public init() {}

    /// `[air_quality]`.
    public struct AirQualitySettings: Sendable, Equatable {
        /// Whether a report gets the air quality at the place (Open-Meteo's Air Quality API,
        /// asked beside the weather); `false` sends nothing.
        public var enabled = true
        public var baseURL = "https://air-quality-api.open-meteo.com"
        /// Whether a plain-http base URL to a remote host may be used.
        public var allowPlainHTTP = false
    }

    /// `[alerts]`.
    public struct AlertSettings: Sendable, Equatable {
        /// Whether a report for a US point from a provider without alerts of its own gets the
        /// National Weather Service's official alerts (`/alerts/active`).
        public var nws = true
        /// MET Norway's warnings (MetAlerts) for points in Norway.
        public var metno = true
        /// The Deutscher Wetterdienst's warnings for points in Germany.
        public var dwd = true
        /// MeteoAlarm's warnings for points in the other European countries it carries.
        public var meteoalarm = true
        /// Environment and Climate Change Canada's warnings (not asked yet: no source is built).
        public var eccc = true
        /// `[alerts.dwd] base_url`.
        public var dwdBaseURL = DWDSource.defaultBaseURL
        /// `[alerts.meteoalarm] base_url`.
        public var meteoalarmBaseURL = MeteoAlarmSource.defaultBaseURL
    }

    /// `[location]`.
    public struct LocationSettings: Sendable, Equatable {
        /// The master switch for automatic sources, like `locationServicesEnabled()`.
        public var enabled = true
        /// `[location] sources` as written in the file; `nil` when not written.
        public var configuredSources: [LocationSource]?
        /// Sources in priority order: those configured, else the zero-config chain
        /// (`LocationSource.zeroConfigChain`), which skips sources absent from the machine.
        public var sources: [LocationSource] {
            get { configuredSources ?? LocationSource.zeroConfigChain(hasFixedLocation: fixed != nil) }
            set { configuredSources = newValue }
        }
        /// Whether the sources are the zero-config chain (`[location] sources` not written).
        public var isZeroConfig: Bool { configuredSources == nil }
        /// How accurate a fix must be.
        public var accuracy: DesiredAccuracy = .threeKilometres
        /// Seconds for the whole location request.
        public var timeout: Double = 10
        /// Fixes older than this many seconds are ignored; `nil` turns the check off.
        public var maxAge: Double? = 300
        /// `[location.fixed]`; `nil` when not configured.
        public var fixed: FixedPlace?
        public var gpsd = GPSDSettings()
        public var nmea = NMEASettings()
        public var ip = IPSettings()
        public var wifi = WiFiSettings()
        /// Permissions written in the config (`[location.<source>] permission`), by source.
        public var permissions: [LocationSource: LocationPermission] = [:]

        /// The seconds `timeout` may be, in the config file and as `--timeout` alike.
        public static let timeoutRange: ClosedRange<Double> = 1...3600
        /// The seconds `maxAge` may be (a year at most), in the config file and as `--max-age` alike.
        public static let maxAgeRange: ClosedRange<Double> = 1...31_536_000
    }

    /// `[output]`.
    public struct OutputSettings: Sendable, Equatable {
        public enum Icons: String, Sendable, CaseIterable { case emoji, nerd, ascii }
        /// `clock`: how times of day are written (a display setting, not a clock).
        public enum ClockFormat: String, Sendable, CaseIterable {
            case twentyFourHour = "24h"
            case twelveHour = "12h"
        }
        /// The glyph set for conditions (day and night variants), wind arrows and bars.
        public var icons: Icons = .emoji
        /// The characters text is drawn in (`TextCharset`): the locale's, decided for a run by
        /// `forLocale`. ASCII icons change only the glyphs: a UTF-8 locale keeps its letters.
        public var charset: TextCharset = .utf8
        /// The clock times are drawn on; when `clockIsAuto`, the locale's (`Configuration.forRun`).
        /// Setting it fixes it: `clockIsAuto` is then false.
        public var clock: ClockFormat = .twentyFourHour { didSet { clockIsAuto = false } }
        /// `clock = "auto"` (the default): the country of the locale decides (`UserLocale.clock`).
        public var clockIsAuto = true
        /// `format_error`: the line `--format` and `--waybar` show on failure; `nil` is the
        /// default (`FailureLine.defaultFormat`).
        public var formatError: FailureLine?
        /// `language`: the language to speak, as written (a catalogue's code or a locale name);
        /// `nil` follows the environment (`LanguageChoice`).
        public var language: String?
        /// The language and customs the run speaks in, decided by `Configuration.forRun`;
        /// here-weather's English until then.
        public var locale: UserLocale = .english

        /// Settings with `clock` given, or "auto" (`nil`: 24-hour until a run decides).
        public init(icons: Icons = .emoji, clock: ClockFormat? = nil, formatError: FailureLine? = nil,
                    locale: UserLocale = .english) {
            self.icons = icons
            self.clock = clock ?? .twentyFourHour
            self.clockIsAuto = clock == nil
            self.formatError = formatError
            self.locale = locale
        }
    }

    /// `[cache]`.
    public struct CacheSettings: Sendable, Equatable {
        /// Seconds a cached report stays fresh (longer when the service's Cache-Control says so).
        public var ttl: Double = 600
        /// Seconds a cached report may be shown, marked with its age, when the service is unreachable.
        public var staleLimit: Double = 21_600
    }

    /// `[privacy]`.
    public struct PrivacySettings: Sendable, Equatable {
        /// Decimals of the coordinates sent to any web service (2: about 1 km).
        public var coordinateDecimals = 2
        /// Whether to name the nearest populated place offline (GeoNames data compiled in).
        public var placeNames = true
    }

    /// `[location.gpsd]`.
    public struct GPSDSettings: Sendable, Equatable {
        public var host = "localhost"
        public var port = 2947
    }

    /// `[location.nmea]`.
    public struct NMEASettings: Sendable, Equatable {
        /// A recorded log or a serial device (e.g. /dev/ttyUSB0).
        public var path: String?
        public var speed: ReplaySpeed = .max
    }

    /// `[weather]`.
    public struct WeatherSettings: Sendable, Equatable {
        public var provider: WeatherProviderKind = .openMeteo
        /// The units asked for; when `unitsAreAuto`, the locale's (`Configuration.forRun`).
        /// Setting them fixes them: `unitsAreAuto` is then false.
        public var units: Units = .metric { didSet { unitsAreAuto = false } }
        /// `units = "auto"` (the default): the country of the locale decides (`UserLocale.units`).
        public var unitsAreAuto = true
        /// Seconds for the whole weather fetch.
        public var timeout: Double = 10
        public var openMeteo = OpenMeteoSettings()
        public var openWeatherMap = OpenWeatherMapSettings()
        public var metNorway = MetNorwaySettings()
        public var pirateWeather = PirateWeatherSettings()
        public var nws = NWSSettings()
    }

    /// `[weather.nws]`.
    public struct NWSSettings: Sendable, Equatable {
        /// An e-mail address or web site for the User-Agent, which api.weather.gov requires.
        public var contact: String?
        public var baseURL = NWSWeatherProvider.defaultBaseURL
        /// Whether a plain-http base URL to a remote host may be used.
        public var allowPlainHTTP = false
    }

    /// `[weather.open-meteo]`.
    public struct OpenMeteoSettings: Sendable, Equatable {
        public var baseURL = "https://api.open-meteo.com"
        /// The geocoding API's base URL, for `--city`.
        public var geocodingURL = OpenMeteoGeocoder.defaultBaseURL
        /// Whether plain-http URLs to a remote host may be used (both of them).
        public var allowPlainHTTP = false
    }

    /// `[weather.openweathermap]`.
    public struct OpenWeatherMapSettings: Sendable, Equatable {
        /// The key from the file; see `Configuration.openWeatherMapKey(environment:)`.
        public var apiKey: String?
        public var baseURL = "https://api.openweathermap.org"
        /// Which of OpenWeatherMap's APIs to ask.
        public var api: OpenWeatherMapAPI = .classic
        /// Whether a plain-http base URL to a remote host may be used (weather and geocoding).
        public var allowPlainHTTP = false
    }

    /// `[weather.openweathermap] api`.
    public enum OpenWeatherMapAPI: String, Sendable, CaseIterable {
        /// Current weather (`/data/2.5/weather`) and the 5 day / 3 hour forecast: every key has them.
        case classic
        /// One Call 3.0 (`/data/3.0/onecall`): hourly steps and alerts, for keys subscribed to it.
        case onecall
    }

    /// `[weather.metno]`.
    public struct MetNorwaySettings: Sendable, Equatable {
        /// An e-mail address or web site for the User-Agent; MET Norway's terms require one.
        public var contact: String?
        public var baseURL = "https://api.met.no"
        /// Whether a plain-http base URL to a remote host may be used.
        public var allowPlainHTTP = false
    }

    /// `[weather.pirateweather]`.
    public struct PirateWeatherSettings: Sendable, Equatable {
        /// The key from the file; see `Configuration.pirateWeatherKey(environment:)`.
        public var apiKey: String?
        /// Any Dark Sky format service; Pirate Weather by default.
        public var baseURL = PirateWeatherWeatherProvider.defaultBaseURL
        /// Whether a plain-http base URL to a remote host may be used.
        public var allowPlainHTTP = false
    }

    /// Every secret the file itself sets (API keys, tokens), not empty: the one list that both
    /// redaction (`secrets(environment:)`) and the file-mode warning (`ConfigFileMode`) use,
    /// so a new secret key cannot be covered by one and missed by the other.
    public var secretsInFile: [String] {
        let values = [weather.openWeatherMap.apiKey, weather.pirateWeather.apiKey, location.wifi.key]
            + location.ip.settings.values.map(\.token)
        return values.compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// The environment variable that holds the OpenWeatherMap key; it wins over the file.
    public static let openWeatherMapKeyVariable = "OPENWEATHERMAP_API_KEY"

    /// The OpenWeatherMap key: the environment variable if set and not empty, else the file's.
    public func openWeatherMapKey(environment: [String: String]) -> String? {
        if let key = environment[Self.openWeatherMapKeyVariable], !key.isEmpty { return key }
        if let key = weather.openWeatherMap.apiKey, !key.isEmpty { return key }
        return nil
    }

    /// The environment variable that holds the Pirate Weather key; it wins over the file.
    public static let pirateWeatherKeyVariable = "PIRATEWEATHER_API_KEY"

    /// The Pirate Weather key: the environment variable if set and not empty, else the file's.
    public func pirateWeatherKey(environment: [String: String]) -> String? {
        if let key = environment[Self.pirateWeatherKeyVariable], !key.isEmpty { return key }
        if let key = weather.pirateWeather.apiKey, !key.isEmpty { return key }
        return nil
    }

    /// Every secret the run holds (API keys and tokens, from the environment and the file),
    /// for redaction in `--verbose` request lines.
    public func secrets(environment: [String: String]) -> [String] {
        let fromEnvironment = [openWeatherMapKey(environment: environment), pirateWeatherKey(environment: environment)]
        return fromEnvironment.compactMap { $0 }.filter { !$0.isEmpty } + secretsInFile
    }
}
