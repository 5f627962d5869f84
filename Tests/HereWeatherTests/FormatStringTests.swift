import Foundation
import Testing
@testable import HereWeatherCore

/// `--format`: every %-code against the Tampa Open-Meteo recording, parsing and its errors,
/// and the command line rejecting a bad format before any location or network work.
@Suite struct FormatStringTests {
    static let provider = OpenMeteoWeatherProvider(baseURL: "https://api.open-meteo.com", http: UnusedHTTPClient(), clock: ContinuousClock())

    static func report(_ fixture: String = "tampa-metric.json", units: Units = .metric) throws -> WeatherReport {
        try provider.report(fromRecording: Fixtures.data("weather/open-meteo/\(fixture)"), units: units)
    }

    static let tampa = Location(coordinate: Coordinate(latitude: 27.9506, longitude: -82.4572), horizontalAccuracy: 1000,
                                timestamp: Date(timeIntervalSince1970: 1_795_374_900), source: .fixed, name: "Tampa")

    func fields(_ report: WeatherReport, output: Configuration.OutputSettings = .init()) -> ReportFields {
        ReportFields(location: Self.tampa, report: report, output: output, now: Date(timeIntervalSince1970: 1_795_374_900))
    }

    func render(_ format: String, _ report: WeatherReport, output: Configuration.OutputSettings = .init()) throws -> String {
        try FormatString(format).render(fields(report, output: output))
    }

    @Test(arguments: [
        ("%c", "☀️"),
        ("%C", "Mainly clear"),
        ("%x", "o"),
        ("%t", "26.8°C"),
        ("%f", "26.9°C"),
        ("%w", "↙4.9m/s"),          // from 30° (NNE): blowing towards the south-west
        ("%h", "65%"),
        ("%p", "0.0mm"),
        ("%P", "1019hPa"),
        ("%u", "4"),                // UV index 3.87, as a whole number (wttr.in's %u)
        ("%S", "06:56"),
        ("%s", "17:35"),
        ("%m", "🌔"),               // 2026-11-22 19:15 UTC: waxing gibbous, 1.8 days before the full moon of the 24th
        ("%M", "12"),
        ("%q", "-"),                // a recording without air quality
        ("%l", "Tampa"),
        ("%L", "fixed: Tampa"),
        ("%a", "now"),
        ("%O", ""),                 // a fresh report: no stale marker
        ("%A", ""),                 // Open-Meteo gives no alerts: nothing, not "-"
        ("%R", ""),                 // no nowcast in this recording: nothing, not "-"
        ("%%", "%"),
    ])
    func everyCode(_ format: String, _ expected: String) throws {
        #expect(try render(format, Self.report()) == expected)
    }

    @Test func everyCodeIsCoveredAbove() {
        // A new code needs a row in `everyCode`: the list there has one per code.
        #expect(FormatString.Code.allCases.count == 22)
    }

    @Test func nowcastCodeIsReadAtTheFieldsTime() throws {
        // Rain from 14:45; the fields are read at 14:15, then at 14:50 (raining until 15:30).
        let report = try Self.report("tampa-rain-in-30-min.json")
        #expect(try render("%R", report) == "🌧️ in 30 min")
        let later = ReportFields(location: Self.tampa, report: report, now: Date(timeIntervalSince1970: 1_795_374_900 + 35 * 60))
        #expect(try FormatString("%R").render(later) == "rain stops in 40 min")
    }

    @Test func alertsCodeShowsTheFirstTitleAndHowManyMore() throws {
        var report = try Self.report()
        report.alerts = [WeatherAlert(title: "Flood Warning")]
        #expect(try render("%A", report) == "Flood Warning")
        report.alerts.append(WeatherAlert(title: "Wind Advisory", severity: "Moderate"))
        #expect(try render("%c %t %A", report) == "☀️ 26.8°C Flood Warning +1")
    }

    @Test func literalsAndCodesTogether() throws {
        #expect(try render("%l: %c %t (%h humidity, 100%%)", Self.report()) == "Tampa: ☀️ 26.8°C (65% humidity, 100%)")
        #expect(throws: UsageError.self, "an empty format prints nothing: refused") { try FormatString("") }
        #expect(try render("no codes", Self.report()) == "no codes")
    }

    @Test func parsesOnceIntoTokens() throws {
        let format = try FormatString("T=%t%%!")
        #expect(format.tokens == [.literal("T="), .code(.temperature), .literal("%!")])
    }

    @Test func wttrPresets() throws {
        #expect(try render("1", Self.report()) == "☀️ 26.8°C")
        #expect(try render("3", Self.report()) == "Tampa: ☀️ 26.8°C")
        #expect(try render("4", Self.report()) == "Tampa: ☀️ 🌡️26.8°C 🌬️↙4.9m/s")
    }

    @Test func unknownCodeIsAUsageErrorNamingIt() {
        do {
            _ = try FormatString("%t %k")
            Issue.record("%k was accepted")
        } catch {
            #expect(error.exitStatus == .usage)
            #expect(error.message.contains("unknown code %k"))
            #expect(error.message.contains("%t"), "lists the known codes")
        }
    }

    @Test func lonePercentAtTheEndIsAUsageError() {
        #expect(throws: UsageError.self) { try FormatString("100%") }
    }

    @Test func imperialUnits() throws {
        let report = try Self.report("denver-imperial.json", units: .imperial)
        let text = try render("%t|%f|%w|%p", report)
        let parts = text.split(separator: "|").map(String.init)
        #expect(parts[0].hasSuffix("°F") && parts[1].hasSuffix("°F"))
        #expect(parts[2].hasSuffix("mph"))
        #expect(parts[3].hasSuffix("in"))
    }

    @Test func missingValuesAreADash() throws {
        let report = try Self.report("nulls.json")
        #expect(report.current.sunrise == nil)
        #expect(try render("%S", report) == "-")
        #expect(try render("%u", report) == "0", "polar night: UV 0")
    }

    @Test func ageOfTheData() throws {
        var report = try Self.report()
        for (seconds, expected) in [(0.0, "now"), (59, "now"), (300, "5 min"), (7199, "119 min"), (7200, "2 h"), (200_000, "2 d")] {
            report.freshness = Freshness(cached: true, ageSeconds: seconds)
            #expect(try render("%a", report) == expected, "\(seconds) s")
        }
    }

    @Test func asciiIconsUseCompassWordsForWind() throws {
        #expect(try render("%c %w", Self.report(), output: .init(icons: .ascii)) == "o NNE 4.9m/s")
    }

    // MARK: The command line

    @Test func formatOnTheCommandLine() async throws {
        let runner = try InProcessCommand()
        let replay = Fixtures.url("weather/open-meteo/tampa-metric.json").path
        let result = try await runner.run(["--lat", "27.95", "--lon", "-82.46", "--weather-replay", replay, "--format", "%c %t %w %h"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "☀️ 26.8°C ↙4.9m/s 65%\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func badFormatFailsBeforeAnyLocationWork() async throws {
        // No location is configured: a run would end with 75. The format is checked first.
        let runner = try InProcessCommand()
        let result = try await runner.run(["--format", "%c %Q"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown code %Q"))
        #expect(result.stdout.isEmpty)
    }

    /// `--format ''` printed an empty line and exit 0: a blank status bar, no hint why.
    @Test(arguments: ["", " ", "\t"])
    func anEmptyFormatIsAUsageError(format: String) async throws {
        let result = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--format", format])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("here-weather: --format is empty; give it %-codes, e.g. --format '%c %t'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let waybar = try await InProcessCommand().run(["--lat", "1", "--lon", "2", "--waybar", "--format", format])
        #expect(waybar.status == 64, "\(waybar.stderr)")
    }

    /// The option's help points at the code list where it really is, from either help.
    @Test func formatHelpPointsAtTheCodeList() async throws {
        let help = try await InProcessCommand().run(["report", "--help"]).stdout
        #expect(help.contains("%-codes: here-weather report --help;"), "\(help)")
        #expect(help.contains("%t "), "no code list:\n\(help)")
        let top = try await InProcessCommand().run(["--help"]).stdout
        #expect(top.contains("%-codes: here-weather report --help;"), "\(top)")
    }

    /// `here-weather --help` once listed only -h and --version: the options of the command a
    /// plain `here-weather` runs are there too, with --version, and the subcommands after them.
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelpListsTheReportsOptions(arguments: [String]) async throws {
        let result = try await InProcessCommand().run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let help = result.stdout
        let options = try #require(help.range(of: "\nOPTIONS (of report, the default command):\n"), "\(help)")
        let subcommands = try #require(help.range(of: "\nSUBCOMMANDS:\n"), "\(help)")
        #expect(options.upperBound < subcommands.lowerBound)
        let listed = help[options.upperBound..<subcommands.lowerBound]
        for option in ["--lat", "--lon", "--city", "--json", "--format", "--waybar", "--daily", "--hourly", "--units",
                       "--provider", "--timeout", "--config", "--version", "-h, --help"] {
            #expect(listed.contains(option), "\(option) missing from:\n\(listed)")
        }
        #expect(!help.contains("\nOPTIONS:\n"), "a second OPTIONS section:\n\(help)")
        #expect(help.contains("\nUSAGE: here-weather [<options>]\n       here-weather <subcommand>\n"), "\(help)")
        // Subcommand help is unchanged.
        let whereHelp = try await InProcessCommand().run(["where", "--help"]).stdout
        #expect(whereHelp.contains("\nOPTIONS:\n") && !whereHelp.contains("default command):"))
    }

    @Test func formatDoesNotGoWithJSONOrTables() async throws {
        let runner = try InProcessCommand()
        for arguments in [["--format", "%t", "--json"], ["--format", "%t", "--hourly"], ["--waybar", "--json"]] {
            let result = try await runner.run(["--lat", "1", "--lon", "2"] + arguments)
            #expect(result.status == 64, "\(arguments)")
        }
    }

    @Test func helpListsTheCodes() async throws {
        let result = try await InProcessCommand().run(["report", "--help"])
        #expect(result.status == 0)
        for code in FormatString.Code.allCases {
            #expect(result.stdout.contains("%\(code.letter)  \(code.summary)"), "%\(code.letter)")
        }
        #expect(result.stdout.contains("--waybar"))
    }
}
