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
        try await run.authorizer(prompt).authorize(.nmea)
        #expect(prompt.questions.isEmpty)
    }

    @Test func withoutATerminalAskIsRefusedNamingTheGrantCommand() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["y"], interactive: false)
        let error = await refusal { try await run.authorizer(prompt).authorize(.gpsd) }
        #expect(error == .needsDecision([.gpsd]))
        #expect(error?.message.contains("`here-weather permissions allow gpsd`") == true)
        #expect(prompt.questions.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
    }

    @Test func withoutATerminalOneCommandGrantsEverySourceThatNeedsIt() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["y"], interactive: false)
        let verdicts = await run.authorizer(prompt).authorize([.gpsd, .wifi, .ip, .fixed])
        let needed = PermissionError.needsDecision([.gpsd, .wifi, .ip])
        #expect(verdicts == [needed, needed, needed, nil])
        #expect(needed.message.contains("Run `here-weather permissions allow gpsd wifi ip` (or `deny`) once."))
        #expect(prompt.questions.isEmpty)
    }

    @Test func oneQuestionForEverySourceAndYesIsRememberedForAll() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["y"])
        let verdicts = await run.authorizer(prompt).authorize([.gpsd, .ip, .fixed])
        #expect(verdicts == [nil, nil, nil])
        #expect(prompt.questions == [PermissionQuestion([.gpsd, .ip], location: Configuration().location).text])
        #expect(prompt.questions[0] == """
            here-weather would like to use your location from:
              gpsd (GPS receiver): nothing leaves this machine
              IP lookup: sends your IP address to ipinfo.io, ipwho.is, ipapi.co
            Allow? y = yes (the default), n = no, o = once (this run only),
            or one y/n per source in the order above (e.g. yn) [Y/n/o]:\u{20}
            """)
        #expect(run.store.load().decisions == [.gpsd: .allow, .ip: .allow])
        #expect(prompt.told.contains("Remembered: gpsd, ip allowed (change with `here-weather permissions`)."))
        let next = ScriptedPrompt([])
        #expect(await run.authorizer(next).authorize([.gpsd, .ip]) == [nil, nil])
        #expect(next.questions.isEmpty)
    }

    @Test func enterTakesTheStatedDefaultYes() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt([""])
        #expect(await run.authorizer(prompt).authorize([.gpsd, .ip]) == [nil, nil])
        #expect(prompt.questions[0].hasSuffix("[Y/n/o]: "))
        #expect(run.store.load().decisions == [.gpsd: .allow, .ip: .allow])
    }

    @Test func noIsRememberedAndTheNextRunIsDeniedWithoutAsking() async throws {
        let run = try Run()
        let verdicts = await run.authorizer(ScriptedPrompt(["No"])).authorize([.gpsd, .ip])
        #expect(verdicts == [.declined(.gpsd, remembered: true), .declined(.ip, remembered: true)])
        #expect(run.store.load().decisions == [.gpsd: .deny, .ip: .deny])
        let next = ScriptedPrompt(["y"])
        let again = await refusal { try await run.authorizer(next).authorize(.ip) }
        #expect(again == .denied(.ip, origin: .remembered(path: run.storePath)))
        #expect(next.questions.isEmpty)
    }

    @Test func oneAnswerPerSource() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["y n"])
        let verdicts = await run.authorizer(prompt).authorize([.gpsd, .ip])
        #expect(verdicts == [nil, .declined(.ip, remembered: true)])
        #expect(run.store.load().decisions == [.gpsd: .allow, .ip: .deny])
        #expect(prompt.told.contains("Remembered: gpsd allowed; ip denied (change with `here-weather permissions`)."))
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
        let prompt = ScriptedPrompt(["always", "yyy", "maybe", "y"])
        let authorizer = run.authorizer(prompt)
        let verdicts = await authorizer.authorize([.gpsd, .ip])
        #expect(verdicts == [.unanswered(.gpsd), .unanswered(.ip)])
        #expect(prompt.questions.count == PermissionQuestion.attempts)
        let reminder = PermissionQuestion([.gpsd, .ip], location: Configuration().location).reminder
        #expect(prompt.told.filter { $0 == reminder }.count == PermissionQuestion.attempts - 1)
        #expect(!FileManager.default.fileExists(atPath: run.storePath))
        // The same run does not ask again.
        let again = await refusal { try await authorizer.authorize(.gpsd) }
        #expect(again == .unanswered(.gpsd))
        #expect(prompt.questions.count == PermissionQuestion.attempts)
    }

    @Test func aGoodAnswerAfterABadOneCounts() async throws {
        let run = try Run()
        let prompt = ScriptedPrompt(["x", "  YES \r"])
        try await run.authorizer(prompt).authorize(.ip)
        #expect(prompt.questions.count == 2)
        #expect(prompt.questions[0].contains("IP lookup: sends your IP address to ipinfo.io"))
        #expect(prompt.questions[0].hasSuffix("Allow? y = yes (the default), n = no, o = once (this run only) [Y/n/o]: "))
        #expect(run.store.load().decisions == [.ip: .allow])
    }

    @Test func thePromptSaysWhatEachSourceSendsToWhomWithin80Columns() {
        var location = Configuration().location
        location.ip.settings[.ipinfo] = IPServiceSettings(.ipinfo, baseURL: "https://geolocation.example-long-hostname.org")
        let question = PermissionQuestion(LocationSource.allCases, location: location)
        let text = question.text
        for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
        #expect(text.contains("gpsd (GPS receiver): nothing leaves this machine"))
        #expect(text.contains("GeoClue: asks the desktop's location service, which may use Wi-Fi, cell or IP"))
        #expect(text.contains("MAC addresses and signal\n    strengths, never their names, to api.beacondb.net\n"))
        #expect(text.contains("IP address to geolocation.example-long-hostname.org,\n    ipwho.is, ipapi.co\n"))
        #expect(question.reminder.count <= 80)
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
        let prompt = ScriptedPrompt(["y"])
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
        let prompt = ScriptedPrompt(["y"])
        try await TerminalPermissionAuthorizer(resolver: resolver, store: store, prompt: prompt).authorize(.gpsd)
        #expect(prompt.told.contains { $0.hasPrefix("here-weather: warning: Cannot remember the decision") })
    }

    @Test func alwaysReplacesACorruptStore() async throws {
        let run = try Run()
        try FileManager.default.createDirectory(atPath: (run.storePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try "decisions = [".write(toFile: run.storePath, atomically: true, encoding: .utf8)
        let prompt = ScriptedPrompt(["y"])
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
                                                               environment: environment, asRoot: true)
        #expect(authorizer.store.path == folder + "/state/here-weather/permissions.toml")
        #expect(authorizer.resolver.policy.restricted == [.gpsd])
        try "[location]\nenabled = \"no\"\n".write(toFile: folder + "/policy.toml", atomically: true, encoding: .utf8)
        #expect(throws: SystemPolicyError.self) {
            try TerminalPermissionAuthorizer.make(configuration: Configuration(), configPath: "/c.toml", environment: environment,
                                                  asRoot: true)
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

    @Test func answeringYesOnARealTerminal() async throws {
        let run = try Run()
        let terminal = try PseudoTerminal()
        let prompt = FileDescriptorPrompt(input: terminal.slave, output: terminal.slave)
        terminal.type("maybe\ny\n")
        try await run.authorizer(prompt).authorize(.gpsd)
        let screen = try terminal.screen()
        #expect(screen.components(separatedBy: "  gpsd (GPS receiver): nothing leaves this machine").count == 3)
        #expect(screen.contains(PermissionQuestion([.gpsd], location: Configuration().location).reminder))
        #expect(screen.contains("Remembered: gpsd allowed"))
        #expect(run.store.load().decisions == [.gpsd: .allow])
        // The next run, on the same terminal, does not ask.
        try await run.authorizer(prompt).authorize(.gpsd)
        #expect(!(try terminal.screen()).contains("would like to use your location"))
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
