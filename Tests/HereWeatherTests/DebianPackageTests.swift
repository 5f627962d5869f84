import Foundation
import Testing
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// `make deb`: the package lintian passes, that installs with `dpkg -i`, runs from /usr/bin
/// without the toolchain, and removes cleanly; its control file names the services, a Debian
/// revision and the homepage, and its docs are as Debian policy wants them (gzipped, with
/// everything they link to).
///
/// In InstallTests' serialized suite, so that it reuses (and never races) the release build
/// in `.build-install`. Installs into the system for real: CI runs it as root on a throwaway
/// machine; run by anyone else it is skipped, saying it needs root (`.needsRoot`).
extension InstallTests {
    /// The files the package must hold, besides the folders.
    static let packaged = [
        "/usr/bin/here-weather",
        "/usr/share/man/man1/here-weather.1.gz",
        "/usr/share/man/man5/here-weather.toml.5.gz",
        "/usr/share/bash-completion/completions/here-weather",
        "/usr/share/zsh/vendor-completions/_here-weather",
        "/usr/share/fish/vendor_completions.d/here-weather.fish",
        "/usr/share/doc/here-weather/copyright",
        "/usr/share/doc/here-weather/changelog.Debian.gz",
        "/usr/share/doc/here-weather/examples/config.toml",
        "/usr/share/doc/here-weather/here-weather.schema.json",
        "/usr/share/doc/here-weather/location.md.gz",
        "/usr/share/doc/here-weather/weather.md.gz",
        // What the guides link to.
        "/usr/share/doc/here-weather/configuration.md.gz",
        "/usr/share/doc/here-weather/translating.md.gz",
    ]

    /// The package's version: the program's, with the Debian revision.
    static let debianVersion = HereWeatherVersion.current + "-1"

    /// Runs dpkg (or dpkg-deb) with `arguments`, waiting out another dpkg's lock for a while:
    /// other work on a shared machine may be installing packages.
    func dpkg(_ tool: String, _ arguments: [String]) async throws -> Output {
        let environment = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"]
        var result = try await run("/usr/bin/" + tool, arguments, environment: environment)
        for _ in 0..<30 where result.status != 0 && result.text.contains("lock") {
            try await Task.sleep(for: .seconds(2))
            result = try await run("/usr/bin/" + tool, arguments, environment: environment)
        }
        return result
    }

    @Test(.needsRoot("installs the .deb into this system with dpkg -i"))
    func debianPackageInstallsRunsWithoutSwiftAndRemovesCleanly() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let deb = try await make(["deb", "DEB_DIR=\(folder.path)"])
        try #require(deb.status == 0, "make deb failed:\n\(deb.text)")
        let package = folder.appendingPathComponent("here-weather_\(Self.debianVersion)_amd64.deb").path
        try #require(FileManager.default.fileExists(atPath: package), "no \(package):\n\(deb.text)")

        // lintian checked it in make deb, which fails on its errors.
        #expect(!deb.text.contains("lintian is not installed"), "\(deb.text)")
        #expect(!deb.text.split(separator: "\n").contains { $0.hasPrefix("E: ") }, "lintian errors:\n\(deb.text)")
        let control = try await dpkg("dpkg-deb", ["--field", package])
        for field in ["Package: here-weather", "Version: \(Self.debianVersion)", "Architecture: amd64",
                      "Homepage: https://github.com/here-weather/here-weather",
                      "Recommends: libgps28 | libgps30t64 | libgps30 | libgps32, libsystemd0",
                      "Suggests: gpsd, geoclue-2.0, network-manager"] {
            #expect(control.text.contains(field + "\n"), "control lacks \(field):\n\(control.text)")
        }
        let depends = control.text.split(separator: "\n").first { $0.hasPrefix("Depends: ") } ?? ""
        #expect(depends.contains("libcurl4") && depends.contains("libc6 (>= "), "\(depends)")
        // The binary's RELR relocations need glibc 2.36, which dpkg-shlibdeps alone does not see.
        #expect(depends.contains("libc6 (>= 2.36)"), "\(depends)")
        #expect(!control.text.lowercased().contains("swift"), "\(control.text)")
        // The Description names every weather service, the NWS included.
        let description = control.text.replacingOccurrences(of: "\n ", with: " ")
        for service in ["Open-Meteo", "OpenWeatherMap", "MET Norway", "Pirate Weather", "US National Weather Service (NWS)"] {
            #expect(description.contains(service), "the Description does not name \(service):\n\(control.text)")
        }
        let owners = try await dpkg("dpkg-deb", ["--contents", package])
        #expect(!owners.text.split(separator: "\n").contains { !$0.contains(" root/root ") }, "\(owners.text)")

        // Installed: dpkg lists the files, and the program runs from /usr/bin without Swift.
        _ = try await dpkg("dpkg", ["--purge", "here-weather"])
        defer { _ = try? runBlocking("/usr/bin/dpkg", ["--purge", "here-weather"], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]) }
        let install = try await dpkg("dpkg", ["--install", package])
        try #require(install.status == 0, "dpkg -i failed:\n\(install.text)")
        let listed = try await dpkg("dpkg", ["--listfiles", "here-weather"])
        let files = listed.text.split(separator: "\n").map(String.init)
        for file in Self.packaged {
            #expect(files.contains(file), "dpkg -L lacks \(file)")
            #expect(FileManager.default.fileExists(atPath: file), "not installed: \(file)")
        }
        try await expectRunsWithoutSwift("/usr/bin/here-weather")
        try await expectDocsAsPolicyWants()
        // The licence: Apache-2.0 for the program (DEP-5, pointing at Debian's copy of the text),
        // CC BY 4.0 kept for the GeoNames data, and no undeclared licence left.
        let copyright = try String(contentsOfFile: "/usr/share/doc/here-weather/copyright", encoding: .utf8)
        #expect(copyright.contains("Files: *\nCopyright: 2026 the here-weather authors\nLicense: Apache-2.0\n"), "\(copyright)")
        #expect(copyright.contains("/usr/share/common-licenses/Apache-2.0"), "\(copyright)")
        #expect(copyright.contains("License: CC-BY-4.0") && !copyright.contains("undeclared"), "\(copyright)")
        let example = try await run("/usr/bin/here-weather", ["config", "show", "--config", "/usr/share/doc/here-weather/examples/config.toml"],
                                    environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        #expect(example.status == 0 && !example.text.contains("warning"), "the example config: \(example.text)")

        // Removed: nothing of it is left.
        let remove = try await dpkg("dpkg", ["--remove", "here-weather"])
        #expect(remove.status == 0, "dpkg -r failed:\n\(remove.text)")
        for file in files {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) {
                #expect(isFolder.boolValue, "dpkg -r left \(file)")
            }
        }
        for leftover in ["/usr/share/doc/here-weather", "/usr/share/zsh/vendor-completions/_here-weather"] {
            #expect(!FileManager.default.fileExists(atPath: leftover), "dpkg -r left \(leftover)")
        }
    }

    /// /usr/share/doc/here-weather as Debian policy (12.3) wants it: every file over 4 kB
    /// gzipped but the copyright and the JSON schema (data that tools read by its path, kept
    /// as dh_compress keeps web files); every link of the guides leads to a file installed
    /// beside them; and the man page names the guides as they are installed.
    func expectDocsAsPolicyWants() async throws {
        let folder = "/usr/share/doc/here-weather"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        for file in files where !file.hasSuffix(".gz") && !["copyright", "examples", "here-weather.schema.json"].contains(file) {
            let size = try FileManager.default.attributesOfItem(atPath: "\(folder)/\(file)")[.size] as? Int ?? 0
            #expect(size <= 4096, "\(folder)/\(file) is \(size) bytes and not gzipped")
        }
        let guides = files.filter { $0.hasSuffix(".md.gz") }
        #expect(guides.count >= 6, "\(guides)")
        for guide in guides {
            let text = try await run("/bin/gzip", ["-dc", "\(folder)/\(guide)"], environment: ["PATH": "/usr/bin:/bin"]).text
            for link in Self.relativeLinks(text) {
                #expect(files.contains(link) || files.contains(link + ".gz"), "\(guide) links to \(link), which is not installed")
            }
        }
        let manual = try await run("/bin/gzip", ["-dc", "/usr/share/man/man1/here-weather.1.gz"], environment: ["PATH": "/usr/bin:/bin"]).text
        #expect(manual.contains(".Pa /usr/share/doc/here-weather/location.md.gz"), "the man page does not name the installed guides")
        for line in manual.split(separator: "\n") where line.hasPrefix(".Pa ") && line.contains(".md") {
            let name = String(line.dropFirst(4).split(separator: " ")[0]).split(separator: "/").last.map(String.init) ?? ""
            #expect(files.contains(name), "the man page names \(line), which is not installed")
        }
    }

    /// The targets of a Markdown text's links to files beside it (`[text](name.md#part)`:
    /// `name.md`), not to the web or within the text.
    static func relativeLinks(_ markdown: String) -> [String] {
        markdown.split(separator: "](").dropFirst().compactMap { rest in
            guard let end = rest.firstIndex(of: ")") else { return nil }
            let target = rest[..<end].split(separator: "#", omittingEmptySubsequences: false)[0]
            guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { return nil }
            return String(target)
        }
    }
}
