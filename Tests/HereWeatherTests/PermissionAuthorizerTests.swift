import Foundation
import Testing
@testable import HereWeatherCore

/// `TerminalPermissionAuthorizer`: asking, remembering, refusing; with a scripted prompt and
/// with the real prompt on a pseudo-terminal.
@Suite struct PermissionAuthorizerTests {
    /// An authorizer over a fresh decisions file, reloaded from disk as a new run would.
    struct Run {
        let folder: String
        var storePath: String { folder + "/state/here-weather/permissions.toml" }
        var store: PermissionStore { PermissionStore(path: storePath) }

        init() throws { folder = try temporaryFolder() }

        func authorizer(_ prompt: any PermissionPrompt, enabled: Bool = true,
                        configured: [LocationSource: LocationPermission] = [:],
                        restricted: Set<LocationSource> = []) -> TerminalPermissionAuthorizer {
            var resolver = PermissionTests.resolver(enabled: enabled, configured: configured, restricted: restricted,
                                                    remembered: store.load().decisions)
            resolver.storePath = storePath
            return TerminalPermissionAuthorizer(resolver: resolver, store: store, prompt: prompt)
        }
    }

    func refusal(_ body: () async throws -> Void) async -> PermissionError? {
        do { try await body() } catch let error as PermissionError { return error } catch { return nil }
        return nil
    }

    @Test func allowedSourcesAreNeverAsked() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt([])
        try await run.authorizer(prompt).authorize(.fixed)
        try await run.authorizer(prompt).authorize(.commandLine)
        #expect(prompt.questions.isEmpty)
    }

    @Test func withoutATerminalAskIsRefusedNamingTheGrantCommand() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["a"], interactive: false)
        let error = await refusal { try await run.authorizer(prompt).authorize(.gpsd) }
        #expect(error == .needsDecision(.gpsd))
        #expect(error?.message.contains("here-weather permissions allow gpsd") == true)
        #expect(prompt.questions.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
    }

    @Test func alwaysIsRememberedAndTheNextRunDoesNotAsk() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["a"])
        try await run.authorizer(prompt).authorize(.gpsd)
        #expect(prompt.questions == [PromptAnswer.question(for: .gpsd)])
        #expect(prompt.questions[0] == "Allow here-weather to use your location from gpsd (GPS receiver)? [o]nce / [a]lways / [n]ever ")
        #expect(run.store.load().decisions == [.gpsd: .allow])
        let next = ScriptedPrompt([])
        try await run.authorizer(next).authorize(.gpsd)
        #expect(next.questions.isEmpty)
    }

    @Test func neverIsRememberedAndTheNextRunIsDeniedWithoutAsking() async throws {
        let run = try Run()
        let error = await refusal { try await run.authorizer(ScriptedPrompt(["never"])).authorize(.ip) }
        #expect(error == .declined(.ip, remembered: true))
        #expect(run.store.load().decisions == [.ip: .deny])
        let next = ScriptedPrompt(["a"])
        let again = await refusal { try await run.authorizer(next).authorize(.ip) }
        #expect(again == .denied(.ip, origin: .remembered(path: run.storePath)))
        #expect(next.questions.isEmpty)
    }

    @Test func onceLastsForThisRunOnly() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["o", "n"])
        let authorizer = run.authorizer(prompt)
        try await authorizer.authorize(.gpsd)
        try await authorizer.authorize(.gpsd)
        #expect(prompt.questions.count == 1)
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
        let next = ScriptedPrompt(["n"])
        let error = await refusal { try await run.authorizer(next).authorize(.gpsd) }
        #expect(next.questions.count == 1)
        #expect(error == .declined(.gpsd, remembered: true))
    }

    @Test func unrecognisedAnswersAreAskedAgainThenRefusedForThisRun() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["yes", "", "maybe", "a"])
        let authorizer = run.authorizer(prompt)
        let error = await refusal { try await authorizer.authorize(.gpsd) }
        #expect(error == .unanswered(.gpsd))
        #expect(prompt.questions.count == PromptAnswer.attempts)
        #expect(prompt.told.filter { $0 == PromptAnswer.reminder }.count == PromptAnswer.attempts - 1)
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
        // The same run does not ask again.
        let again = await refusal { try await authorizer.authorize(.gpsd) }
        #expect(again == .unanswered(.gpsd))
        #expect(prompt.questions.count == PromptAnswer.attempts)
    }

    @Test func aGoodAnswerAfterABadOneCounts() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["x", "  ALWAYS \r"])
        try await run.authorizer(prompt).authorize(.ip)
        #expect(prompt.questions.count == 2)
        #expect(prompt.questions[0].contains("IP lookup (sends your IP address to a web service)"))
        #expect(run.store.load().decisions == [.ip: .allow])
    }

    @Test func endOfInputRefusesAndRemembersNothing() async throws {
        let run = try Run()
        let error = await refusal { try await run.authorizer(ScriptedPrompt([nil])).authorize(.gpsd) }
        #expect(error == .unanswered(.gpsd))
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
    }

    @Test func policyAndSwitchRefuseWithoutAsking() async throws {
        let run = try Run()
        try run.store.save([.ip: .allow])
        let prompt = ScriptedPrompt(["a"])
        let restricted = await refusal { try await run.authorizer(prompt, restricted: [.ip]).authorize(.ip) }
        #expect(restricted == .restricted(.ip, policyPath: PermissionTests.policyPath))
        let off = await refusal { try await run.authorizer(prompt, enabled: false).authorize(.gpsd) }
        #expect(off == .disabledByUser(configPath: PermissionTests.configPath))
        let denied = await refusal { try await run.authorizer(prompt, configured: [.nmea: .deny]).authorize(.nmea) }
        #expect(denied == .denied(.nmea, origin: .configFile(path: PermissionTests.configPath)))
        #expect(prompt.questions.isEmpty)
    }

    @Test func anUnwritableStoreStillAllowsThisRunAndSaysSo() async throws {
        let folder = try temporaryFolder()
        let blocker = folder + "/file"
        try "not a folder".write(toFile: blocker, atomically: true, encoding: .utf8)
        let store = PermissionStore(path: blocker + "/permissions.toml")
        let resolver = PermissionTests.resolver()
        let prompt = ScriptedPrompt(["a"])
        try await TerminalPermissionAuthorizer(resolver: resolver, store: store, prompt: prompt).authorize(.gpsd)
        #expect(prompt.told.contains { $0.hasPrefix("warning: Cannot remember the decision") })
    }

    @Test func alwaysReplacesACorruptStore() async throws {
        let run = try Run()
        try FileManager.default.createDirectory(atPath: (run.storePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try "decisions = [".write(toFile: run.storePath, atomically: true, encoding: .utf8)
        let prompt = ScriptedPrompt(["a"])
        try await run.authorizer(prompt).authorize(.gpsd)
        #expect(prompt.told.contains { $0.contains("ignoring the remembered location permissions") })
        let reloaded = run.store.load()
        #expect(reloaded.warnings.isEmpty)
        #expect(reloaded.decisions == [.gpsd: .allow])
    }

    @Test func makeReadsThePolicyAndStoreFromTheEnvironment() throws {
        let folder = try temporaryFolder()
        let environment = ["HOME": folder, "XDG_STATE_HOME": folder + "/state",
                           SystemPolicy.pathVariable: folder + "/policy.toml"]
        try "[location.gpsd]\npermission = \"restricted\"\n".write(toFile: folder + "/policy.toml", atomically: true, encoding: .utf8)
        let authorizer = try TerminalPermissionAuthorizer.make(configuration: Configuration(), configPath: "/c.toml",
                                                               environment: environment)
        #expect(authorizer.store.path == folder + "/state/here-weather/permissions.toml")
        #expect(authorizer.resolver.policy.restricted == [.gpsd])
        try "[location]\nenabled = \"no\"\n".write(toFile: folder + "/policy.toml", atomically: true, encoding: .utf8)
        #expect(throws: SystemPolicyError.self) {
            try TerminalPermissionAuthorizer.make(configuration: Configuration(), configPath: "/c.toml", environment: environment)
        }
    }

    // MARK: The real prompt

    @Test func thePromptNeedsTerminalsOnBothEnds() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        let terminal = try PseudoTerminal()
        #expect(FileDescriptorPrompt(input: terminal.slave, output: terminal.slave).isInteractive)
        #expect(!FileDescriptorPrompt(input: pipeEnds[0], output: terminal.slave).isInteractive)
        #expect(!FileDescriptorPrompt(input: terminal.slave, output: pipeEnds[1]).isInteractive)
    }

    @Test func answeringAlwaysOnARealTerminal() async throws {
        let run = try Run()
        let terminal = try PseudoTerminal()
        let prompt = FileDescriptorPrompt(input: terminal.slave, output: terminal.slave)
        terminal.type("maybe\na\n")
        try await run.authorizer(prompt).authorize(.gpsd)
        let screen = try terminal.screen()
        #expect(screen.components(separatedBy: "Allow here-weather to use your location from gpsd (GPS receiver)? [o]nce / [a]lways / [n]ever ").count == 3)
        #expect(screen.contains(PromptAnswer.reminder))
        #expect(screen.contains("Remembered: gpsd allowed"))
        #expect(run.store.load().decisions == [.gpsd: .allow])
        // The next run, on the same terminal, does not ask.
        try await run.authorizer(prompt).authorize(.gpsd)
        #expect(!(try terminal.screen()).contains("Allow here-weather"))
    }

    @Test func endOfInputOnARealTerminalRefuses() async throws {
        let run = try Run()
        let terminal = try PseudoTerminal()
        terminal.type("\u{04}")  // Ctrl-D on an empty line: end of input.
        let prompt = FileDescriptorPrompt(input: terminal.slave, output: terminal.slave)
        let error = await refusal { try await run.authorizer(prompt).authorize(.gpsd) }
        #expect(error == .unanswered(.gpsd))
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
    }
}
