import Synchronization

/// Decides whether a source may be used, asking the user on a terminal when its permission
/// is `ask`, like CoreLocation's authorization prompt.
///
/// Order (see `PermissionResolver`): the system policy, the config file's master switch,
/// then the source's permission (remembered decision > config file > default). For `ask`:
/// - on a terminal (stdin and stderr are TTYs), the question is asked once per run and
///   source; "always" and "never" are remembered in the decisions file (`PermissionStore`),
///   never in the config file; "once" lasts for this run;
/// - an unrecognised answer is asked again, up to `PromptAnswer.attempts` times; then, or at
///   end of input, the source is refused for this run and nothing is remembered;
/// - without a terminal, the source is refused with the command that grants it.
///
/// Command-line input (`.commandLine`, `.city`) is always allowed; callers need not ask for it.
public final class TerminalPermissionAuthorizer: LocationAuthorizer {
    /// The state the decisions were made from.
    public let resolver: PermissionResolver
    public let store: PermissionStore
    public let prompt: any PermissionPrompt
    /// Warnings from loading the policy and the decisions file, for the caller to print on
    /// stderr (as with `ConfigurationLoader.Loaded.warnings`).
    public var warnings: [String] { resolver.warnings }

    /// Outcomes of this run's prompts, by source. One lock for the whole decision, so that
    /// two sources never prompt at once.
    private let answers = Mutex<[LocationSource: Result<Void, PermissionError>]>([:])

    public init(resolver: PermissionResolver, store: PermissionStore, prompt: any PermissionPrompt = FileDescriptorPrompt()) {
        self.resolver = resolver
        self.store = store
        self.prompt = prompt
    }

    /// The authorizer for a run: the system policy and remembered decisions from
    /// `environment`, prompting on stdin/stderr. Throws `SystemPolicyError` (exit 78) when a
    /// policy file exists but cannot be used.
    public static func make(configuration: Configuration, configPath: String,
                            environment: [String: String]) throws -> TerminalPermissionAuthorizer {
        let resolver = try PermissionResolver.load(configuration: configuration, configPath: configPath,
                                                   environment: environment)
        return TerminalPermissionAuthorizer(resolver: resolver, store: PermissionStore(environment: environment))
    }

    /// Returns when `source` may be used; throws `PermissionError` (exit 77) when not.
    public func authorize(_ source: LocationSource) async throws {
        switch resolver.decide(source) {
        case .allowed: return
        case .refused(let error): throw error
        case .ask: break
        }
        guard prompt.isInteractive else { throw PermissionError.needsDecision(source) }
        let outcome: Result<Void, PermissionError> = try await BlockingCall.run { [self] in
            .success(askOnce(source))
        }
        try outcome.get()
    }

    /// Asks about `source` unless this run already has an answer; blocks on the prompt.
    func askOnce(_ source: LocationSource) -> Result<Void, PermissionError> {
        answers.withLock { answers in
            if let earlier = answers[source] { return earlier }
            let outcome = ask(source)
            answers[source] = outcome
            return outcome
        }
    }

    private func ask(_ source: LocationSource) -> Result<Void, PermissionError> {
        for attempt in 1...PromptAnswer.attempts {
            guard let line = prompt.ask(PromptAnswer.question(for: source)) else {
                prompt.tell("")
                return .failure(.unanswered(source))
            }
            guard let answer = PromptAnswer(line) else {
                if attempt < PromptAnswer.attempts { prompt.tell(PromptAnswer.reminder) }
                continue
            }
            switch answer {
            case .once:
                return .success(())
            case .always:
                remember(.allow, source)
                return .success(())
            case .never:
                return .failure(.declined(source, remembered: remember(.deny, source)))
            }
        }
        return .failure(.unanswered(source))
    }

    /// Saves the decision; on failure says so and goes on (the answer holds for this run).
    @discardableResult
    private func remember(_ permission: LocationPermission, _ source: LocationSource) -> Bool {
        do {
            for warning in try store.remember(permission, for: source) { prompt.tell(warning) }
            prompt.tell("Remembered: \(source.rawValue) \(permission == .allow ? "allowed" : "denied") (change with `here-weather permissions`).")
            return true
        } catch {
            prompt.tell("warning: \(error)")
            return false
        }
    }
}
