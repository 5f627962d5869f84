import Foundation
import Synchronization
import Testing
@testable import HereWeatherCore

/// A prompt that plays scripted answers (`nil` = end of input) and records what it showed.
final class ScriptedPrompt: PermissionPrompt {
    struct State {
        var answers: [String?]
        var questions: [String] = []
        var told: [String] = []
    }

    let isInteractive: Bool
    let state: Mutex<State>

    init(_ answers: [String?], interactive: Bool = true) {
        isInteractive = interactive
        state = Mutex(State(answers: answers))
    }

    func ask(_ question: String) -> String? {
        state.withLock { state in
            state.questions.append(question)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
    }

    func tell(_ line: String) { state.withLock { $0.told.append(line) } }
    var questions: [String] { state.withLock { $0.questions } }
    var told: [String] { state.withLock { $0.told } }
}

/// A fresh folder for a test's files.
func temporaryFolder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("here-weather-perm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

/// The permission model: policy, remembered decisions, config, defaults, and the prompt.
@Suite struct PermissionTests {
    static let configPath = "/home/u/.config/here-weather/config.toml"
    static let policyPath = "/etc/here-weather/policy.toml"
    static let storePath = "/home/u/.local/state/here-weather/permissions.toml"

    static func resolver(enabled: Bool = true, configured: [LocationSource: LocationPermission] = [:],
                         policyEnabled: Bool = true, restricted: Set<LocationSource> = [],
                         remembered: PermissionStore.Decisions = [:]) -> PermissionResolver {
        var location = Configuration().location
        location.enabled = enabled
        location.permissions = configured
        let policy = SystemPolicy(path: policyPath, fileExists: true, locationEnabled: policyEnabled, restricted: restricted)
        return PermissionResolver(location: location, configPath: configPath, policy: policy,
                                  decisions: remembered, storePath: storePath)
    }

    // MARK: Resolution

    @Test func defaultsFollowTheSpec() {
        let resolver = Self.resolver()
        #expect(resolver.states.map(\.source) == [.gpsd, .geoclue, .wifi, .ip, .nmea, .fixed])
        #expect(resolver.states.map(\.permission) == [.ask, .ask, .ask, .ask, .allow, .allow])
        #expect(resolver.states.allSatisfy { $0.origin == .defaultValue })
        #expect(resolver.masterSwitch == .init(enabled: true, origin: .defaultValue))
        #expect(resolver.decide(.gpsd) == .ask)
        #expect(resolver.decide(.fixed) == .allowed)
    }

    /// Every combination of policy, master switch, remembered decision and config permission.
    @Test(arguments: LocationSource.permissionSources)
    func everyCombinationFollowsThePrecedence(source: LocationSource) {
        let policies: [(enabled: Bool, restricted: Bool)] = [(true, false), (true, true), (false, false), (false, true)]
        let remembered: [LocationPermission?] = [nil, .allow, .deny]
        let configured: [LocationPermission?] = [nil, .ask, .allow, .deny]
        for policy in policies {
            for enabled in [true, false] {
                for decision in remembered {
                    for config in configured {
                        let resolver = Self.resolver(
                            enabled: enabled, configured: config.map { [source: $0] } ?? [:],
                            policyEnabled: policy.enabled, restricted: policy.restricted ? [source] : [],
                            remembered: decision.map { [source: $0] } ?? [:])
                        let state = resolver.state(of: source)
                        let label = "policy \(policy) enabled \(enabled) remembered \(String(describing: decision)) config \(String(describing: config))"
                        // The source's own state: policy > remembered > config > default.
                        if policy.restricted {
                            #expect(state.permission == .restricted && state.origin == .systemPolicy(path: Self.policyPath), "\(label)")
                        } else if let decision {
                            #expect(state.permission == decision && state.origin == .remembered(path: Self.storePath), "\(label)")
                        } else if let config {
                            #expect(state.permission == config && state.origin == .configFile(path: Self.configPath), "\(label)")
                        } else {
                            #expect(state.permission == LocationPermission.defaultPermission(for: source) && state.origin == .defaultValue, "\(label)")
                        }
                        // The decision: policy off, restricted, switch off, then the state.
                        let expected: PermissionResolver.Decision
                        if !policy.enabled {
                            expected = .refused(.disabledByPolicy(policyPath: Self.policyPath))
                        } else if policy.restricted {
                            expected = .refused(.restricted(source, policyPath: Self.policyPath))
                        } else if !enabled {
                            expected = .refused(.disabledByUser(configPath: Self.configPath))
                        } else {
                            switch state.permission {
                            case .allow: expected = .allowed
                            case .ask: expected = .ask
                            default: expected = .refused(.denied(source, origin: state.origin))
                            }
                        }
                        #expect(resolver.decide(source) == expected, "\(label)")
                    }
                }
            }
        }
    }

    @Test func masterSwitchOrigins() {
        #expect(Self.resolver(enabled: false).masterSwitch == .init(enabled: false, origin: .configFile(path: Self.configPath)))
        #expect(Self.resolver(enabled: false, policyEnabled: false).masterSwitch
                == .init(enabled: false, origin: .systemPolicy(path: Self.policyPath)))
        #expect(Self.resolver(policyEnabled: false).masterSwitch.enabled == false)
    }

    @Test func grantingIsRefusedOnlyByThePolicy() {
        #expect(Self.resolver(restricted: [.ip]).grantRefusal(.ip) == .restricted(.ip, policyPath: Self.policyPath))
        #expect(Self.resolver(restricted: [.ip]).grantRefusal(.gpsd) == nil)
        #expect(Self.resolver(policyEnabled: false).grantRefusal(.gpsd) == .disabledByPolicy(policyPath: Self.policyPath))
        #expect(Self.resolver(enabled: false, configured: [.gpsd: .deny]).grantRefusal(.gpsd) == nil)
    }

    @Test func messagesAreOneLineExit77AndSayWhatToDo() {
        let errors: [PermissionError] = [
            .disabledByUser(configPath: Self.configPath), .disabledByPolicy(policyPath: Self.policyPath),
            .restricted(.ip, policyPath: Self.policyPath), .denied(.gpsd, origin: .configFile(path: Self.configPath)),
            .denied(.gpsd, origin: .remembered(path: Self.storePath)), .needsDecision([.gpsd, .ip]),
            .declined(.gpsd, remembered: true), .unanswered(.gpsd),
        ]
        for error in errors {
            #expect(error.exitStatus == .notPermitted)
            #expect(!error.message.contains("\n"))
        }
        #expect(errors[0].message.contains("enabled = true") && errors[0].message.contains(Self.configPath))
        #expect(errors[1].message.contains("administrator") && errors[1].message.contains(Self.policyPath))
        #expect(errors[2].message.contains("restricted by the administrator") && errors[2].message.contains(Self.policyPath))
        #expect(errors[3].message.contains("[location.gpsd]") && errors[3].message.contains(Self.configPath))
        #expect(errors[4].message.contains("here-weather permissions allow gpsd"))
        #expect(errors[5].message.contains("`here-weather permissions allow gpsd ip`"))
    }
}
