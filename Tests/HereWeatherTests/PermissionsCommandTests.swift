import Foundation
import Testing
@testable import HereWeatherCore

/// `here-weather permissions`, run as a user runs it, with a private state folder and policy.
@Suite struct PermissionsCommandTests {
    /// A runner whose XDG state folder and system policy are its own (its runs are told they
    /// run as root, who alone may name another policy; whoever runs the tests).
    struct User {
        let runner: InProcessCommand
        var state: String { runner.home.path + "/state" }
        var policyPath: String { runner.home.path + "/policy.toml" }
        var storePath: String { state + "/here-weather/permissions.toml" }

        init() throws { runner = try InProcessCommand() }

        func run(_ arguments: [String]) async throws -> CommandRunner.Result {
            try await runner.run(["permissions"] + arguments,
                           environment: ["XDG_STATE_HOME": state, SystemPolicy.pathVariable: policyPath], asRoot: true)
        }

        func writePolicy(_ text: String) throws {
            try text.write(toFile: policyPath, atomically: true, encoding: .utf8)
        }

        /// The output's row for `source`, split on runs of spaces.
        func row(_ result: CommandRunner.Result, _ source: String) -> [String] {
            let line = result.stdout.split(separator: "\n").first { $0.hasPrefix(source + " ") } ?? ""
            return line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func showListsEverySourceWithItsStateAndOrigin() async throws {
        let user = try User()
        let result = try await user.run([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("Location services: on, by default\n"))
        #expect(user.row(result, "gpsd") == ["gpsd", "ask", "default"])
        #expect(user.row(result, "geoclue") == ["geoclue", "ask", "default"])
        #expect(user.row(result, "wifi") == ["wifi", "ask", "default"])
        #expect(user.row(result, "ip") == ["ip", "ask", "default"])
        #expect(user.row(result, "nmea") == ["nmea", "allow", "default"])
        #expect(user.row(result, "fixed") == ["fixed", "allow", "default"])
        #expect(try await user.run(["show"]).stdout == result.stdout)
    }

    @Test func allowTakesSeveralSourcesAtOnce() async throws {
        let user = try User()
        let allow = try await user.run(["allow", "gpsd", "wifi", "ip"])
        #expect(allow.status == 0, "\(allow.stderr)")
        #expect(allow.stdout == ["gpsd", "wifi", "ip"].map { "\($0): allow, set by remembered decision (\(user.storePath))\n" }.joined())
        #expect(PermissionStore(path: user.storePath).load().decisions == [.gpsd: .allow, .wifi: .allow, .ip: .allow])
        let show = try await user.run([])
        #expect(user.row(show, "geoclue") == ["geoclue", "ask", "default"], "only the sources named")
        #expect(try await user.run(["reset", "wifi", "ip"]).stdout == "wifi: ask, by default\nip: ask, by default\n")
        #expect(PermissionStore(path: user.storePath).load().decisions == [.gpsd: .allow])
    }

    @Test func allowOfSeveralChangesNothingWhenThePolicyRestrictsOne() async throws {
        let user = try User()
        try user.writePolicy("[location.ip]\npermission = \"restricted\"\n")
        let allow = try await user.run(["allow", "gpsd", "ip"])
        #expect(allow.status == 77)
        #expect(allow.stderr.contains("restricted by the administrator"))
        #expect(!FileManager.default.fileExists(atPath: user.storePath), "gpsd was not allowed either")
        let none = try await user.run(["allow"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("Name at least one source"))
    }

    @Test func allowDenyResetChangeTheRememberedDecision() async throws {
        let user = try User()
        let allow = try await user.run(["allow", "gpsd"])
        #expect(allow.status == 0, "\(allow.stderr)")
        #expect(allow.stdout == "gpsd: allow, set by remembered decision (\(user.storePath))\n")
        #expect(try await user.run(["deny", "ip"]).status == 0)
        var show = try await user.run([])
        #expect(user.row(show, "gpsd") == ["gpsd", "allow", "remembered decision (\(user.storePath))"])
        #expect(user.row(show, "ip") == ["ip", "deny", "remembered decision (\(user.storePath))"])
        #expect(PermissionStore(path: user.storePath).load().decisions == [.gpsd: .allow, .ip: .deny])
        let mode = try FileManager.default.attributesOfItem(atPath: user.storePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let reset = try await user.run(["reset", "gpsd"])
        #expect(reset.stdout == "gpsd: ask, by default\n")
        show = try await user.run([])
        #expect(user.row(show, "gpsd") == ["gpsd", "ask", "default"])
        #expect(user.row(show, "ip") == ["ip", "deny", "remembered decision (\(user.storePath))"])
    }

    @Test func theConfigFileIsNeverRewritten() async throws {
        let user = try User()
        let config = """
            # My settings. Keep this comment!
            version = 1
            [location]
            sources = ["gpsd", "fixed"]   # GPS first

            [location.gpsd]
            permission = "deny"           # not until I say so
            [location.ip]
            permission = "allow"
            """
        try user.runner.writeConfig(config)
        let before = try Data(contentsOf: URL(fileURLWithPath: user.runner.configPath))
        var show = try await user.run([])
        #expect(user.row(show, "gpsd") == ["gpsd", "deny", "config file (\(user.runner.configPath))"])
        #expect(user.row(show, "ip") == ["ip", "allow", "config file (\(user.runner.configPath))"])
        // A remembered decision beats the config file's permission.
        #expect(try await user.run(["allow", "gpsd"]).stdout.hasPrefix("gpsd: allow, set by remembered decision"))
        #expect(try await user.run(["deny", "ip"]).status == 0)
        #expect(try await user.run(["reset", "ip"]).stdout == "ip: allow, set by config file (\(user.runner.configPath))\n")
        show = try await user.run([])
        #expect(user.row(show, "gpsd")[1] == "allow")
        #expect(try Data(contentsOf: URL(fileURLWithPath: user.runner.configPath)) == before)
    }

    @Test func theMasterSwitchAndItsOrigin() async throws {
        let user = try User()
        try user.runner.writeConfig("[location]\nenabled = false\n")
        let show = try await user.run([])
        #expect(show.stdout.hasPrefix("Location services: off, set by config file (\(user.runner.configPath))\n"))
        #expect(show.stdout.contains("enabled = true under [location] in \(user.runner.configPath)"))
        let allow = try await user.run(["allow", "gpsd"])
        #expect(allow.status == 0)
        #expect(allow.stdout.contains("Note: location services are off"))
    }

    @Test func theSystemPolicyWinsAndCannotBeOverridden() async throws {
        let user = try User()
        #expect(try await user.run(["allow", "ip"]).status == 0)
        try user.writePolicy("[location.ip]\npermission = \"restricted\"\n")
        let show = try await user.run([])
        #expect(show.status == 0)
        #expect(user.row(show, "ip") == ["ip", "restricted", "system policy (\(user.policyPath))"])
        let allow = try await user.run(["allow", "ip"])
        #expect(allow.status == 77)
        #expect(allow.stderr.contains("restricted by the administrator"))
        #expect(allow.stderr.contains(user.policyPath))
        #expect(try await user.run(["allow", "gpsd"]).status == 0)
        try user.writePolicy("[location]\nenabled = false\n")
        let off = try await user.run([])
        #expect(off.stdout.hasPrefix("Location services: off, set by system policy (\(user.policyPath))\n"))
        #expect(try await user.run(["allow", "gpsd"]).status == 77)
    }

    @Test func anInvalidPolicyIsExit78NamingTheFile() async throws {
        let user = try User()
        try user.writePolicy("[location.ip]\npermission = \"maybe\"\n")
        let result = try await user.run([])
        #expect(result.status == 78)
        #expect(result.stderr.contains("Invalid system location policy \(user.policyPath)"))
        try user.writePolicy("[location.ip]\npermission = \"restricted\"\ncolour = \"red\"\n")
        let warned = try await user.run([])
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("unknown key location.ip.colour"))
    }

    @Test func anUnknownSourceIsExit64ListingTheSources() async throws {
        let result = try await User().run(["allow", "bluetooth"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("gpsd, geoclue, wifi, ip, nmea or fixed"))
    }

    @Test func aCorruptStoreIsAWarningAndTheNextDecisionReplacesIt() async throws {
        let user = try User()
        try FileManager.default.createDirectory(atPath: user.state + "/here-weather", withIntermediateDirectories: true)
        try "[decisions\ngpsd = ".write(toFile: user.storePath, atomically: true, encoding: .utf8)
        let show = try await user.run([])
        #expect(show.status == 0)
        #expect(show.stderr.contains("here-weather: warning: ignoring the remembered location permissions in \(user.storePath)"))
        #expect(user.row(show, "gpsd") == ["gpsd", "ask", "default"])
        #expect(try await user.run(["deny", "gpsd"]).status == 0)
        let after = try await user.run([])
        #expect(after.stderr.isEmpty)
        #expect(user.row(after, "gpsd")[1] == "deny")
    }

    /// The run's own word on root (`CommandContext.runsAsRoot`) decides whether the policy
    /// variable is honoured, not the test process's uid: before, in-process runs as an ordinary
    /// user ignored every test's policy, and as root honoured it for every "user".
    @Test func onlyARunAsRootMayNameAnotherPolicy() async throws {
        let user = try User()
        try user.writePolicy("[location.ip]\npermission = \"restricted\"\n")
        let environment = ["XDG_STATE_HOME": user.state, SystemPolicy.pathVariable: user.policyPath]
        let root = try await user.runner.run(["permissions"], environment: environment, asRoot: true)
        #expect(user.row(root, "ip") == ["ip", "restricted", "system policy (\(user.policyPath))"], "\(root.stdout)")
        #expect(root.stderr.isEmpty, "\(root.stderr)")
        let ordinary = try await user.runner.run(["permissions"], environment: environment, asRoot: false)
        #expect(user.row(ordinary, "ip").dropFirst().first != "restricted", "\(ordinary.stdout)")
        #expect(ordinary.stderr.contains("\(SystemPolicy.pathVariable) is ignored: only root"), "\(ordinary.stderr)")
    }

    /// The real prompt on a pseudo-terminal, then the command that shows what it remembered.
    @Test func anAlwaysAnswerShowsUpInPermissions() async throws {
        let user = try User()
        let environment = ["HOME": user.runner.home.path, "XDG_STATE_HOME": user.state,
                           SystemPolicy.pathVariable: user.policyPath]
        let terminal = try PseudoTerminal()
        let made = try TerminalPermissionAuthorizer.make(configuration: Configuration(), configPath: user.runner.configPath,
                                                         environment: environment, asRoot: true)
        let authorizer = TerminalPermissionAuthorizer(resolver: made.resolver, store: made.store,
                                                      prompt: FileDescriptorPrompt(input: terminal.slave, output: terminal.slave))
        terminal.type("y\n")
        try await authorizer.authorize(.gpsd)
        #expect(try terminal.screen().contains("[Y/n/o]: "))
        let show = try await user.run([])
        #expect(user.row(show, "gpsd") == ["gpsd", "allow", "remembered decision (\(user.storePath))"])
    }
}
