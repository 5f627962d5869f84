/// The config file as text: the commented template `config init` writes, and the effective
/// settings `config show` prints (API keys redacted).
public enum ConfigurationText {
    /// A commented default file: every key at its default, optional ones commented out.
    public static let template = """
    # here-weather configuration (TOML). Every key is optional; shown here at its default.
    # Reference: `man here-weather.toml` (docs/configuration.md in the source).
    version = 1

    [location]
    enabled = true            # the master switch: false refuses every source below
    # Where locations come from, in priority order: "gpsd" (a GPS receiver through gpsd),
    # "geoclue" (the desktop's location service), "wifi" (Wi-Fi positioning), "ip" (an
    # IP-geolocation web service), "nmea" (a recorded NMEA log), "fixed" (below).
    # Not set (the default), the chain is the one below, and sources not present on this
    # machine (gpsd not running, no GeoClue, no Wi-Fi) are skipped; "fixed" joins it once
    # [location.fixed] has a position. The first fix that meets `accuracy` wins. Set the
    # list to choose and order the sources yourself (every one listed is then tried).
    # Each source has a permission: "ask" (gpsd, geoclue, wifi, ip), "allow" (fixed, nmea)
    # or "deny"; the first run asks once about all of them on a terminal, and
    # `here-weather permissions` shows and changes them without touching this file.
    # sources = ["gpsd", "geoclue", "wifi", "ip", "fixed"]
    accuracy = "3km"          # best, 10m, 100m, 1km, 3km or any: weather needs no more than 3km
    timeout = 10              # seconds for the whole location request
    max_age = 300             # ignore fixes older than this many seconds ("off": any age)

    # A fixed location: uncomment and set latitude and longitude (decimal degrees).
    # Without `accuracy`, or with one within [location] accuracy, it is the answer: nothing
    # is asked and no other source is started. A coarser one is the fallback after the live
    # sources; without a terminal, sources not yet allowed are then skipped with a warning.
    [location.fixed]
    # latitude = 27.9506
    # longitude = -82.4572
    # name = "Tampa"          # optional: shown instead of the coordinates
    # accuracy = 1000         # optional: metres

    [location.gpsd]
    # permission = "ask"
    host = "localhost"
    port = 2947

    [location.geoclue]        # GeoClue allows apps in /etc/geoclue/geoclue.conf: [here-weather] allowed=true
    # permission = "ask"

    [location.wifi]
    # permission = "ask"      # sends the Wi-Fi networks around you (never their names) to a third party
    base_url = "https://api.beacondb.net/v1/geolocate"   # any Ichnaea/Google geolocate endpoint
    # key = ""                # for services that need one (sent as ?key=)
    # remember_days = 7       # the same access points answer from memory, without a request

    [location.ip]
    # permission = "ask"      # IP lookup sends your address to a third party
    services = ["ipinfo", "ipwhois", "ipapi"]   # tried in order; also "ip-api" (plain HTTP)

    [location.nmea]
    # path = "/path/to/log.nmea"   # a recorded NMEA 0183 log
    speed = "max"             # playback speed: "max" or a factor (1 = recorded pace)

    [privacy]
    coordinate_decimals = 2   # decimals of the coordinates sent to web services (2: about 1 km)
    place_names = true        # name the nearest town ("near Tampa, Florida, US"), offline: nothing is sent

    [output]
    icons = "emoji"           # "emoji", "nerd" (Nerd Fonts) or "ascii"
    clock = "auto"            # "auto" (the locale's country: 12h in the US, 24h in most others), "24h" or "12h"
    # The language of reports; not set, the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).
    # language = "de"         # a code (de, fr, pt-BR, ...) or a locale name (de_AT.UTF-8)
    # What --format and --waybar print when there is no report: %c a warning sign (per icons),
    # %e what is wrong in a few words ("no location"), %E its code ("no_location"), or text.
    # format_error = "%c %e"

    [cache]
    ttl = 600                 # seconds a report stays fresh (longer if the service says so)
    stale_limit = 21600       # seconds an old report may be shown, marked, when offline

    [weather]
    # "open-meteo" (no key needed), "openweathermap" (a key), "metno" (MET Norway: a contact
    # below, no key), "pirateweather" (a key) or "nws" (US National Weather Service: US points
    # only, a contact below, no key)
    provider = "open-meteo"
    units = "auto"            # "auto" (imperial in the US, Liberia, Myanmar; else metric), "metric" (°C, m/s, mm),
                              # "imperial" (°F, mph, in) or "standard" (K, m/s, mm)
    timeout = 10              # seconds for the whole weather fetch

    [weather.open-meteo]
    base_url = "https://api.open-meteo.com"
    geocoding_url = "https://geocoding-api.open-meteo.com"   # for --city
    # allow_plain_http = true   # any [weather.*] table: permit a plain http:// URL to another machine

    [weather.openweathermap]
    # api_key = ""            # or the OPENWEATHERMAP_API_KEY environment variable
    base_url = "https://api.openweathermap.org"
    api = "classic"           # "classic" (every key) or "onecall" (One Call 3.0: hourly, alerts; a separate plan)

    [weather.metno]
    # contact = "you@example.org"   # required by MET Norway's terms: an e-mail address or web site
    base_url = "https://api.met.no"

    [weather.pirateweather]
    # api_key = ""            # or the PIRATEWEATHER_API_KEY environment variable
    base_url = "https://api.pirateweather.net"   # any Dark Sky format service

    [weather.nws]
    # contact = "you@example.org"   # required by api.weather.gov: an e-mail address or web site
    base_url = "https://api.weather.gov"

    [alerts]
    nws = true                # official NWS alerts for US points with open-meteo, metno or openweathermap
    metno = true              # MET Norway's warnings for points in Norway (the same providers)
    eccc = true               # Canada's warnings (reserved: not asked yet)

    [alerts.dwd]              # or `dwd = false` under [alerts]
    enabled = true            # DWD's warnings for points in Germany
    base_url = "https://maps.dwd.de"

    [alerts.meteoalarm]       # or `meteoalarm = false` under [alerts]
    enabled = true            # MeteoAlarm's warnings for points in the rest of Europe
    base_url = "https://feeds.meteoalarm.org"

    [air_quality]
    enabled = true            # the air quality and pollen (Open-Meteo's Air Quality API) with every report
    base_url = "https://air-quality-api.open-meteo.com"

    """

    /// The effective configuration as TOML. The API key is never shown: only whether one is
    /// set, and where from.
    public static func effective(_ config: Configuration, environment: [String: String]) -> String {
        let location = config.location
        var lines = ["version = \(config.version)", "", "[location]", "enabled = \(location.enabled)"]
        let sources = "sources = [" + location.sources.map { quote($0.rawValue) }.joined(separator: ", ") + "]"
        lines.append(location.isZeroConfig ? "# \(sources)   # not set: this chain, absent sources skipped" : sources)
        lines.append("accuracy = \(quote(location.accuracy.description))")
        lines.append("timeout = \(number(location.timeout))")
        lines.append("max_age = " + (location.maxAge.map(number) ?? quote("off")))
        lines += ["", "[location.fixed]"]
        if let fixed = location.fixed {
            lines.append("latitude = \(number(fixed.coordinate.latitude))")
            lines.append("longitude = \(number(fixed.coordinate.longitude))")
            lines.append(fixed.name.map { "name = \(quote($0))" } ?? "# name not set")
            lines.append(fixed.accuracy.map { "accuracy = \(number($0))" } ?? "# accuracy not set")
            lines.append(fixed.altitude.map { "altitude = \(number($0))" } ?? "# altitude not set")
        } else {
            lines += ["# latitude not set", "# longitude not set", "# name not set", "# accuracy not set", "# altitude not set"]
        }
        // Every key is listed: one not set shows, commented, what applies.
        func permission(_ source: LocationSource) -> [String] {
            [location.permissions[source].map { "permission = \(quote($0.rawValue))" }
                ?? "# permission = \(quote(LocationPermission.defaultPermission(for: source).rawValue))   # not set: the default"]
        }
        func plainHTTP(_ allowed: Bool) -> String { "allow_plain_http = \(allowed)" }
        lines.insert(contentsOf: permission(.fixed), at: lines.firstIndex(of: "[location.fixed]").map { $0 + 1 } ?? lines.count)
        lines += ["", "[location.gpsd]"] + permission(.gpsd)
            + ["host = \(quote(location.gpsd.host))", "port = \(location.gpsd.port)"]
        lines += ["", "[location.geoclue]"] + permission(.geoclue)
        lines += ["", "[location.wifi]"] + permission(.wifi) + ["base_url = \(quote(location.wifi.baseURL))"]
        lines.append(location.wifi.key?.isEmpty == false ? "key = \"[redacted]\"  # from the config file" : "# key not set")
        lines.append(plainHTTP(location.wifi.allowPlainHTTP))
        lines.append("remember_days = \(number(location.wifi.rememberDays))")
        lines += ["", "[location.ip]"] + permission(.ip)
            + ["services = [" + location.ip.services.map { quote($0.rawValue) }.joined(separator: ", ") + "]"]
        for service in IPService.allCases {
            let settings = location.ip.settings(for: service)
            lines += ["", "[location.ip.\(service.rawValue)]", "base_url = \(quote(settings.baseURL))"]
            if service == .ipinfo {
                lines.append(settings.token?.isEmpty == false ? "token = \"[redacted]\"  # from the config file" : "# token not set")
            }
            lines.append(plainHTTP(settings.allowPlainHTTP))
        }
        lines += ["", "[location.nmea]"] + permission(.nmea) + [location.nmea.path.map { "path = \(quote($0))" } ?? "# path not set",
                  "speed = " + (location.nmea.speed == .max ? quote("max") : location.nmea.speed.description)]
        lines += ["", "[privacy]", "coordinate_decimals = \(config.privacy.coordinateDecimals)",
                  "place_names = \(config.privacy.placeNames)"]
        // What "auto" and a missing language stand for in this environment.
        let choice = try? LanguageChoice.resolve(environment: environment, configured: config.output.language)
        lines += ["", "[output]", "icons = \(quote(config.output.icons.rawValue))"]
        lines.append(config.output.clockIsAuto
            ? "clock = \(quote("auto"))" + (choice.map { "   # here: \($0.locale.clock.rawValue)" } ?? "")
            : "clock = \(quote(config.output.clock.rawValue))")
        lines.append(config.output.language.map { "language = \(quote($0))" }
            ?? "# language not set: the environment's" + (choice.map { " (here: \($0.locale.code))" } ?? ""))
        lines.append(config.output.formatError.map { "format_error = \(quote($0.text))" } ?? "# format_error not set")
        lines += ["", "[cache]", "ttl = \(number(config.cache.ttl))", "stale_limit = \(number(config.cache.staleLimit))"]
        lines += ["", "[weather]",
                  "provider = \(quote(config.weather.provider.rawValue))",
                  config.weather.unitsAreAuto
                    ? "units = \(quote("auto"))" + (choice.map { "   # here: \($0.locale.units.rawValue)" } ?? "")
                    : "units = \(quote(config.weather.units.rawValue))",
                  "timeout = \(number(config.weather.timeout))",
                  "", "[weather.open-meteo]",
                  "base_url = \(quote(config.weather.openMeteo.baseURL))",
                  "geocoding_url = \(quote(config.weather.openMeteo.geocodingURL))"]
        lines.append(plainHTTP(config.weather.openMeteo.allowPlainHTTP))
        lines += ["", "[weather.openweathermap]"]
        lines.append(keyLine(variable: Configuration.openWeatherMapKeyVariable,
                             inFile: config.weather.openWeatherMap.apiKey, environment: environment))
        lines.append("base_url = \(quote(config.weather.openWeatherMap.baseURL))")
        lines.append("api = \(quote(config.weather.openWeatherMap.api.rawValue))")
        lines.append(plainHTTP(config.weather.openWeatherMap.allowPlainHTTP))
        lines += ["", "[weather.metno]",
                  config.weather.metNorway.contact.map { "contact = \(quote($0))" } ?? "# contact not set (required to use metno)",
                  "base_url = \(quote(config.weather.metNorway.baseURL))"]
        lines.append(plainHTTP(config.weather.metNorway.allowPlainHTTP))
        lines += ["", "[weather.pirateweather]"]
        lines.append(keyLine(variable: Configuration.pirateWeatherKeyVariable,
                             inFile: config.weather.pirateWeather.apiKey, environment: environment))
        lines.append("base_url = \(quote(config.weather.pirateWeather.baseURL))")
        lines.append(plainHTTP(config.weather.pirateWeather.allowPlainHTTP))
        lines += ["", "[weather.nws]",
                  config.weather.nws.contact.map { "contact = \(quote($0))" } ?? "# contact not set (required to use nws)",
                  "base_url = \(quote(config.weather.nws.baseURL))"]
        lines.append(plainHTTP(config.weather.nws.allowPlainHTTP))
        let alerts = config.alerts
        lines += ["", "[alerts]", "nws = \(alerts.nws)", "metno = \(alerts.metno)", "eccc = \(alerts.eccc)",
                  "", "[alerts.dwd]", "enabled = \(alerts.dwd)", "base_url = \(quote(alerts.dwdBaseURL))",
                  "", "[alerts.meteoalarm]", "enabled = \(alerts.meteoalarm)", "base_url = \(quote(alerts.meteoalarmBaseURL))"]
        lines += ["", "[air_quality]", "enabled = \(config.airQuality.enabled)",
                  "base_url = \(quote(config.airQuality.baseURL))"]
        lines.append(plainHTTP(config.airQuality.allowPlainHTTP))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `api_key` line: never the key, only where it comes from.
    static func keyLine(variable: String, inFile key: String?, environment: [String: String]) -> String {
        if environment[variable].map({ !$0.isEmpty }) ?? false { return "api_key = \"[redacted]\"  # from \(variable)" }
        if key?.isEmpty == false { return "api_key = \"[redacted]\"  # from the config file" }
        return "# api_key not set"
    }

    /// A TOML number at full precision: `10`, `27.950612`.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A TOML basic string (TOML's escapes are JSON's).
    static func quote(_ text: String) -> String {
        JSONOutput.string(text).serialized()
    }
}
