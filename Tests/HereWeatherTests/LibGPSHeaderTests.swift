import Foundation
import Testing
import HereWeatherGPSD

/// What here-weather assumes about each libgps version, checked against that version's real
/// gps.h (Debian's libgps-dev, in `Fixtures/libgps/`): `probe.c` compiles only when every
/// function the shim calls has the shim's signature and the WATCH flags their values, and
/// prints the version's API, `sizeof(struct gps_data_t)` and where `gps_fd` is.
@Suite struct LibGPSHeaderTests {
    /// One probe's output: "api=14 size=29224 socket_offset=24 socket_width=4".
    struct Layout: Equatable {
        var api: Int
        var size: Int
        var socketOffset: Int
        var socketWidth: Int
    }

    static func probe(header folder: String) async throws -> Layout {
        let compiler = try #require(FakeLibGPS.compiler, "no C compiler (clang or cc)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-libgps-probe-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let build = try await ChildProcess.finished(
            [compiler, "-Wall", "-Werror", "-I", Fixtures.url("libgps/\(folder)").path, "-I", Fixtures.root.appendingPathComponent("Sources/CGPS").path,
             Fixtures.url("libgps/probe.c").path, "-o", output],
            environment: ProcessInfo.processInfo.environment, mergingErrors: true)
        try #require(build.termination == .exited(0), "gps.h of \(folder) does not match the shim:\n\(build.stdoutText)")
        let run = try await ChildProcess.finished([output], environment: [:])
        var values: [String: Int] = [:]
        for field in run.stdoutText.split(whereSeparator: \.isWhitespace) {
            let parts = field.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return Layout(api: try #require(values["api"], "\(run.stdoutText)"), size: try #require(values["size"], "\(run.stdoutText)"),
                      socketOffset: try #require(values["socket_offset"]), socketWidth: try #require(values["socket_width"]))
    }

    static let checked = LibGPSVersion.supported.filter { $0.header != nil }

    @Test(arguments: checked)
    func eachVersionsHeaderMatchesWhatTheShimAssumes(_ version: LibGPSVersion) async throws {
        let layout = try await Self.probe(header: try #require(version.header))
        #expect(String(layout.api) == version.api, "\(version.soname): API")
        #expect(layout.socketOffset == version.socketOffset && layout.socketWidth == version.socketWidth,
                "\(version.soname): gps_fd is at \(layout.socketOffset), \(layout.socketWidth) bytes")
        // The handle holds the struct with room to spare: half as much again at least.
        #expect(layout.size * 3 / 2 <= LibGPS.handleSize, "\(version.soname): struct gps_data_t is \(layout.size) bytes")
    }

    /// Every header kept is a supported version's, and the versions without one are only those
    /// Debian never shipped (gpsd 3.23 and 3.24).
    @Test func everyHeaderIsAVersionsAndOnlyLibgps29LacksOne() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("libgps").path)
            .filter { FileManager.default.fileExists(atPath: Fixtures.url("libgps/\($0)/gps.h").path) }
        #expect(Set(folders) == Set(Self.checked.compactMap(\.header)))
        #expect(LibGPSVersion.supported.filter { $0.header == nil }.map(\.soname) == ["libgps.so.29"])
        // The versions without a header share the socket's place with both neighbours.
        #expect(LibGPSVersion.supported.first { $0.soname == "libgps.so.29" }?.socketOffset == 24)
    }
}
