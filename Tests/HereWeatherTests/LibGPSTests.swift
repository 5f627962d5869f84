import Foundation
import Testing
import HereWeatherCore
@testable import HereWeatherGPSD

/// Finding libgps: this machine's real one is found and identified by the soname its file
/// carries; a library of another version, or a damaged one, is refused and named, never used
/// (built stand-ins, `FakeLibGPS`, for what this machine cannot have); nothing found at all is
/// "not installed", and only then.
@Suite struct LibGPSTests {
    @Test func thisMachinesLibgpsIsFoundAndIdentifiedByItsSoname() throws {
        guard case .usable(let library) = LibGPS.current else {
            Issue.record("no usable libgps on this machine: \(LibGPS.current)")
            return
        }
        #expect(LibGPSVersion.supported.contains(library.version))
        #expect(FileManager.default.fileExists(atPath: library.path), "\(library.path)")
        #expect(LibGPS.soname(ofFile: library.path) == library.version.soname)
        #expect(library.description.hasPrefix(library.version.soname + " (gpsd "), "\(library.description)")
        // A real call into the library.
        #expect(!library.errorText(-1).isEmpty)
    }

    @Test func sonamesAreReadFromTheFile() async throws {
        let fake = try await FakeLibGPS.library(.init(soname: "libgps.so.31"))
        #expect(LibGPS.soname(ofFile: fake) == "libgps.so.31")
        #expect(LibGPS.soname(ofFile: "/etc/hostname") == nil, "not ELF")
        #expect(LibGPS.soname(ofFile: "/nonexistent/libgps.so") == nil)
        // An executable has no soname; a cut library file is not read past its end.
        #expect(LibGPS.soname(ofFile: "/bin/sh") == nil)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cut = URL(fileURLWithPath: folder).appendingPathComponent("libgps.so.30")
        try Data(try Data(contentsOf: URL(fileURLWithPath: fake)).prefix(200)).write(to: cut)
        #expect(LibGPS.soname(ofFile: cut.path) == nil)
    }

    /// Before: only libgps.so.28 and then libgps.so were tried, and a library of another
    /// version was used as if it were API 11's (Debian 13 with libgps-dev: "stack smashing
    /// detected"). Now another version is named and refused, wherever it is found.
    @Test func aLibgpsOfAnotherVersionIsNamedAndRefused() async throws {
        let other = try await FakeLibGPS.library(.init(soname: "libgps.so.31"))
        guard case .unusable(let problem) = LibGPS.find([other]) else { Issue.record("libgps.so.31 was used"); return }
        #expect(problem == .unknownVersion(file: other, soname: "libgps.so.31"))

        // libgps-dev's libgps.so pointing at it: refused, named by the file found and its soname.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let development = folder + "/libgps.so"
        try FileManager.default.createSymbolicLink(atPath: development, withDestinationPath: other)
        guard case .unusable(let viaLink) = LibGPS.find([development]) else { Issue.record("libgps.so was used"); return }
        #expect(viaLink == .unknownVersion(file: development, soname: "libgps.so.31"))

        // A file named as a supported version but carrying another soname is what its soname says.
        let renamed = folder + "/libgps.so.30"
        try FileManager.default.copyItem(atPath: other, toPath: renamed)
        guard case .unusable(let misnamed) = LibGPS.find([renamed]) else { Issue.record("a misnamed .31 was used"); return }
        #expect(misnamed == .unknownVersion(file: renamed, soname: "libgps.so.31"))
    }

    @Test func aSupportedLibraryAfterAnUnusableOneIsUsed() async throws {
        guard case .usable(let real) = LibGPS.current else { Issue.record("no libgps here"); return }
        let other = try await FakeLibGPS.library(.init(soname: "libgps.so.31"))
        guard case .usable(let found) = LibGPS.find([other, real.path]) else { Issue.record("the real libgps was not used"); return }
        #expect(found.version == real.version)
    }

    @Test func aLibgpsWithoutAFunctionIsRefused() async throws {
        let damaged = try await FakeLibGPS.library(.init(soname: "libgps.so.30", defines: ["WITHOUT_GPS_READ"]))
        guard case .unusable(let problem) = LibGPS.find([damaged]) else { Issue.record("used without gps_read"); return }
        #expect(problem == .missingFunction(file: damaged, soname: "libgps.so.30", function: "gps_read"))
    }

    /// "Not installed" only when no libgps is there at all: an unsupported version that none of
    /// the usual names find is looked for and named.
    @Test func notInstalledOnlyWhenNoLibgpsIsThere() async throws {
        let other = try await FakeLibGPS.library(.init(soname: "libgps.so.31"))
        guard case .unusable(let missing) = LibGPS.find(["libgps.so.999"], others: ["libgps.so.998"]) else {
            Issue.record("found a libgps.so.999"); return
        }
        #expect(missing == .missing)
        guard case .unusable(let named) = LibGPS.find(["libgps.so.999"], others: ["libgps.so.998", other]) else {
            Issue.record("used libgps.so.31"); return
        }
        #expect(named == .unknownVersion(file: other, soname: "libgps.so.31"))
        // The supported names come first, newest first, then libgps-dev's libgps.so; the others
        // searched for are every other libgps.so.N.
        #expect(LibGPS.candidates == ["libgps.so.32", "libgps.so.30", "libgps.so.29", "libgps.so.28", "libgps.so"])
        #expect(LibGPS.otherSonames.contains("libgps.so.31") && !LibGPS.otherSonames.contains("libgps.so.30"))
    }

    /// A library named as a supported version whose handle does not hold the socket where
    /// that version keeps it is not that version: the session refuses it, naming the file,
    /// instead of polling some other descriptor.
    @Test func aLibgpsThatKeepsItsSocketElsewhereIsRefusedOnceConnected() async throws {
        let elsewhere = try await FakeLibGPS.library(.init(soname: "libgps.so.30", defines: ["SOCKET_OFFSET=200"]))
        let peer = try FakeTCPPeer(.init(greeting: [], closes: false))
        defer { peer.stop() }
        let provider = GPSDLocationProvider(host: "127.0.0.1", port: Int(peer.port), clock: ContinuousClock(), library: { LibGPS.find([elsewhere]) })
        let error = await #expect(throws: LocationError.self) {
            try await provider.requestLocation(LocationRequest(desiredAccuracy: .any, timeout: .seconds(10), maxAge: nil, start: .now))
        }
        #expect(error == .libgpsUnusable(address: "127.0.0.1:\(peer.port)",
                                         problem: .socketNotFound(file: elsewhere, soname: "libgps.so.30"),
                                         supported: LibGPSVersion.supportedList))
    }

    @Test func everyProblemSaysWhatWasFoundAndAStepThatWorks() {
        let supported = LibGPSVersion.supportedList
        #expect(supported == "libgps.so.28 (gpsd 3.22), libgps.so.29 (gpsd 3.23-3.24), libgps.so.30 (gpsd 3.25) and libgps.so.32 (gpsd 3.27)")
        let missing = LibGPSProblem.missing.message(address: "localhost:2947", supported: supported)
        #expect(missing.contains("not installed") && missing.contains("sudo apt install libgps30t64")
                && missing.contains("sudo apt install libgps28"), "\(missing)")
        let problems: [LibGPSProblem] = [
            .unknownVersion(file: "/usr/lib/x86_64-linux-gnu/libgps.so.31", soname: "libgps.so.31"),
            .unknownVersion(file: "/usr/local/lib/libgps.so", soname: nil),
            .missingFunction(file: "/usr/lib/libgps.so.30", soname: "libgps.so.30", function: "gps_read"),
            .socketNotFound(file: "/usr/lib/libgps.so.29", soname: "libgps.so.29"),
        ]
        for problem in problems {
            let text = problem.message(address: "localhost:2947", supported: supported)
            #expect(!text.contains("not installed") && !text.contains("libgps-dev"), "\(text)")
            #expect(!text.contains("\n") && text.contains("localhost:2947"), "\(text)")
            #expect(text.contains("--source ip"), "another source always works: \(text)")
            switch problem {
            case .unknownVersion(let file, let soname):
                #expect(text.contains(file) && text.contains(soname ?? "without a soname") && text.contains(supported), "\(text)")
            case .socketNotFound(let file, let soname):
                #expect(text.contains(file) && text.contains(soname) && text.contains(supported), "\(text)")
            case .missingFunction(let file, _, let function):
                #expect(text.contains(file) && text.contains(function) && text.contains("dpkg -S \(file)"), "\(text)")
            case .missing:
                break
            }
        }
    }
}
