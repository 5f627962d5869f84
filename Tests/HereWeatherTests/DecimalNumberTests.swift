import Foundation
import Testing
@testable import HereWeatherCore

/// Hexadecimal numbers are not valid coordinates or seconds (`Double("0x10")` is 16), on the
/// command line or from an IP service; 30,000 unknown config keys give one warning line with
/// their count (issue 35 E35).
@Suite struct DecimalNumberTests {
    @Test(arguments: ["-82.46", "27.95", ".5", "5.", "1e3", "+3", "-0", "1E-2"])
    func decimalsAreNumbers(_ text: String) {
        #expect(DecimalText.number(text) == Double(text), "\(text)")
    }

    @Test(arguments: ["0x10", "0X1p4", "-0x1b", "inf", "-infinity", "nan", "", "-", ".", "1e", "1e+", " 1", "1 ", "1,5", "١٢"])
    func othersAreNot(_ text: String) {
        #expect(DecimalText.number(text) == nil, "\(text)")
    }

    @Test(arguments: [["--lat", "0x10", "--lon", "2"], ["--lat", "1", "--lon", "-0x52"], ["--lat", "1", "--lon", "2", "--timeout", "0x10"],
                      ["--lat", "1", "--lon", "2", "--max-age", "0x10"], ["--lat", "nan", "--lon", "2"]])
    func hexIsNotANumberOption(_ arguments: [String]) async throws {
        let runner = try InProcessCommand()
        let result = try await runner.run(["where"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anIPServicesHexCoordinatesAreNoPosition() async throws {
        let body = String(decoding: Fixtures.data("ip/ipinfo/success.json"), as: UTF8.self)
        let loc = try #require(body.firstRange(of: #""loc": ""#).map { body[$0.upperBound...].prefix { $0 != "\"" } })
        let server = try FixtureServer(routes: ["/ipinfo/json": .json(200, body.replacing(String(loc), with: "0x1b,-0x52"))])
        let runner = try InProcessCommand()
        try runner.writeConfig("""
            version = 1
            [location]
            sources = ["ip"]
            [location.ip]
            permission = "allow"
            services = ["ipinfo"]
            [location.ip.ipinfo]
            base_url = "\(server.baseURL)/ipinfo"
            """)
        let result = try await runner.run(["where", "--json"])
        #expect(result.status == 75, "\(result.stdout)")
        #expect(result.stderr.contains("answered without a usable position"), "\(result.stderr)")
    }

    @Test func thirtyThousandUnknownKeysAreOneWarningLine() async throws {
        let runner = try InProcessCommand()
        let keys = (0..<30_000).map { "x\($0) = 1" }.joined(separator: "\n")
        try runner.writeConfig("version = 1\n" + keys + "\n")
        let result = try await runner.run(["where", "--lat", "1", "--lon", "2"])
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(lines.prefix(3))")
        #expect(lines.first?.hasPrefix("here-weather: warning: 30000 unknown keys at ") == true, "\(lines.first ?? "")")
        #expect(lines.first?.hasSuffix("(ignored), from x0 on line 2 to x29999 on line 30001") == true, "\(lines.first ?? "")")
        // A few are still named one by one, with their suggestion.
        try runner.writeConfig("version = 1\n[location]\nsoruces = [\"ip\"]\n")
        let one = try await runner.run(["where", "--lat", "1", "--lon", "2"])
        #expect(one.stderr.contains("unknown key location.soruces at "), "\(one.stderr)")
        #expect(one.stderr.contains("did you mean 'location.sources'?"))
    }
}
