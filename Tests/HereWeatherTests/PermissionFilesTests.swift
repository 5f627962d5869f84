import Foundation
import Testing
@testable import HereWeatherCore

/// The system policy file and the remembered-decisions file.
@Suite struct PermissionFilesTests {
    static let path = "/etc/here-weather/policy.toml"

    // MARK: System policy

    @Test func aMissingPolicyIsNoPolicy() throws {
        let policy = try SystemPolicy.load(path: try temporaryFolder() + "/none.toml")
        #expect(!policy.fileExists && policy.locationEnabled && policy.restricted.isEmpty && policy.warnings.isEmpty)
    }

    @Test func thePolicyPathComesFromTheEnvironment() {
        #expect(SystemPolicy.path(environment: [:]) == "/etc/here-weather/policy.toml")
        #expect(SystemPolicy.path(environment: ["HERE_WEATHER_SYSTEM_POLICY": ""]) == "/etc/here-weather/policy.toml")
        #expect(SystemPolicy.path(environment: ["HERE_WEATHER_SYSTEM_POLICY": "/opt/p.toml"], asRoot: true) == "/opt/p.toml")
        // Anyone else could escape the policy by naming a missing file.
        #expect(SystemPolicy.path(environment: ["HERE_WEATHER_SYSTEM_POLICY": "/opt/p.toml"], asRoot: false) == "/etc/here-weather/policy.toml")
    }

    @Test func offAndRestrictedAreRead() throws {
        let policy = try SystemPolicy.parse("""
            version = 1
            [location]
            enabled = false
            [location.ip]
            permission = "restricted"
            [location.gpsd]
            permission = "deny"
            """, path: Self.path)
        #expect(!policy.locationEnabled)
        #expect(policy.restricted == [.ip, .gpsd])
        #expect(policy.warnings.isEmpty)
    }

    @Test func allowAndAskHaveNoEffectAndAreReported() throws {
        let policy = try SystemPolicy.parse("[location]\nenabled = true\n[location.gpsd]\npermission = \"allow\"\n", path: Self.path)
        #expect(policy.locationEnabled && policy.restricted.isEmpty)
        #expect(policy.warnings.count == 1)
        #expect(policy.warnings.first?.contains("[location.gpsd] permission = \"allow\"") == true)
    }

    @Test func unknownKeysAreWarnings() throws {
        let policy = try SystemPolicy.parse("[location]\nbluetooth = 1\n[location.ip]\npermission = \"restricted\"\nnote = \"x\"\n[other]\n", path: Self.path)
        #expect(policy.restricted == [.ip])
        #expect(policy.warnings == [
            "unknown key location.bluetooth in the system policy \(Self.path):2 (ignored)",
            "unknown key location.ip.note in the system policy \(Self.path):5 (ignored)",
            "unknown key other in the system policy \(Self.path):6 (ignored)",
        ])
    }

    @Test(arguments: [
        ("[location.ip]\npermission = \"restrcted\"\n", "[location.ip] permission must be \"restricted\""),
        ("[location]\nenabled = \"no\"\n", "[location] enabled must be true or false"),
        ("[location\n", "line 1"),
        ("version = 2\n", "version = 2"),
        ("[location.ip]\npermission = 1\n", "[location.ip] permission must be a string"),
    ])
    func anInvalidPolicyFailsClosedNamingTheFile(text: String, detail: String) {
        do {
            _ = try SystemPolicy.parse(text, path: Self.path)
            Issue.record("accepted \(text)")
        } catch let error as SystemPolicyError {
            #expect(error.exitStatus == .configuration)
            #expect(error.message.contains(Self.path))
            #expect(error.message.contains(detail), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anUnreadablePolicyFailsClosed() throws {
        let folder = try temporaryFolder()  // A folder where the file should be.
        #expect(throws: SystemPolicyError.unreadable(path: folder, reason: "it is a folder, not a file")) {
            try SystemPolicy.load(path: folder)
        }
    }

    // MARK: Remembered decisions

    @Test func theStoreLivesInXDGState() {
        #expect(RunStorage(environment: ["HOME": "/h"]).permissions.path == "/h/.local/state/here-weather/permissions.toml")
        #expect(RunStorage(environment: ["HOME": "/h", "XDG_STATE_HOME": "/s"]).permissions.path == "/s/here-weather/permissions.toml")
        #expect(RunStorage(environment: ["HOME": "/h", "XDG_STATE_HOME": "rel"]).permissions.path == "/h/.local/state/here-weather/permissions.toml")
    }

    @Test func decisionsRoundTripWithMode0600() throws {
        let store = PermissionStore(path: try temporaryFolder() + "/new/here-weather/permissions.toml")
        #expect(store.load() == .init(decisions: [:], warnings: []))
        try store.save([.ip: .deny, .gpsd: .allow])
        #expect(store.load() == .init(decisions: [.gpsd: .allow, .ip: .deny], warnings: []))
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try store.remember(nil, for: .gpsd)
        try store.remember(.allow, for: .fixed)
        #expect(store.load().decisions == [.ip: .deny, .fixed: .allow])
    }

    @Test func savingReplacesTheFileAtomically() throws {
        let folder = try temporaryFolder()
        let store = PermissionStore(path: folder + "/permissions.toml")
        try store.save([.gpsd: .deny])
        // A reader that opened the old file keeps the old file whole; the path names the new one.
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: store.path))
        try store.save([.gpsd: .allow])
        let old = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        #expect(old == PermissionStore.render([.gpsd: .deny]))
        #expect(try String(contentsOfFile: store.path, encoding: .utf8) == PermissionStore.render([.gpsd: .allow]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["permissions.toml"])
    }

    @Test(arguments: ["decisions = [", "\u{FF}\u{FE}binary", "decisions = 3", "version = 9\n[decisions]\ngpsd = \"allow\"\n"])
    func aCorruptStoreIsAWarningAndEmpty(text: String) throws {
        let store = PermissionStore(path: try temporaryFolder() + "/permissions.toml")
        try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
        let loaded = store.load()
        #expect(loaded.decisions.isEmpty)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains(store.path) == true)
        try store.remember(.deny, for: .ip)
        #expect(store.load() == .init(decisions: [.ip: .deny], warnings: []))
    }

    @Test func badEntriesAreSkippedAndTheRestKept() {
        let store = PermissionStore(path: "/s/permissions.toml")
        let loaded = store.parse("[decisions]\ngpsd = \"allow\"\nip = \"restricted\"\nbluetooth = \"allow\"\nnmea = true\n")
        #expect(loaded.decisions == [.gpsd: .allow])
        #expect(loaded.warnings.count == 3)
    }

    @Test func anUnwritableStoreIsExit73() throws {
        let folder = try temporaryFolder()
        try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
        let store = PermissionStore(path: folder + "/file/permissions.toml")
        do {
            try store.save([.gpsd: .allow])
            Issue.record("saved under a file")
        } catch let error as PermissionStoreError {
            #expect(error.exitStatus == .cannotCreate)
            #expect(error.message.contains(store.path))
        }
    }
}
