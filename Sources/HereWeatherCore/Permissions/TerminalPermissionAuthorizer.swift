import Synchronization

/// Decides whether sources may be used, asking the user on a terminal about those whose
/// permission is `ask`, like CoreLocation's authorization prompt.
///
/// Order (see `PermissionResolver`): the system policy, the config file's master switch,
/// then the source's permission (remembered decision > config file > default). For `ask`:
/// - on a terminal (stdin and stderr are TTYs), ONE question lists every source still
///   needing an answer (`PermissionQuestion`); yes and no are remembered in the decisions
///   file (`PermissionStore`), never in the config file; "once" lasts for this run;
/// - an unrecognised answer is asked again, up to `PermissionQuestion.attempts` times; then,
///   or at end of input, the sources are refused for this run and nothing is remembered;
/// - without a terminal, they are refused with the one command that grants them all; when
///   another source may answer (a fixed location), they are skipped with one warning line
///   that names that command.
///
/// Explicit input (`--lat/--lon`, `--city`) is not a source and needs no permission.
public final class TerminalPermissionAuthorizer: LocationAuthorizer {
    /// The state the decisions were made from.
    public let resolver: PermissionResolver
    public let store: PermissionStore
    public let prompt: any PermissionPrompt
    /// Warnings from loading the policy and the decisions file, for the caller to print on
    /// stderr (as with `ConfigurationLoader.Loaded.warnings`).
    public var warnings: [String] { resolver.warnings }

    /// Outcomes of this run's prompt, by source (`nil`: allowed). One lock for the whole
    /// decision, so that two questions never show at once.
    private let answers = Mutex<[LocationSource: PermissionError?]>([:])

    public init(resolver: PermissionResolver, store: PermissionStore, prompt: any PermissionPrompt = FileDescriptorPrompt()) {
        self.resolver = resolver
        self.store = store
        self.prompt = prompt
    }

    /// The authorizer for a run: the system policy and remembered decisions from
    /// `environment` (another policy file only `asRoot`), prompting on `prompt` (stdin/stderr).
    /// Throws `SystemPolicyError` (exit 78) when a policy file exists but cannot be used.
    public static func make(configuration: Configuration, configPath: String, environment: [String: String],
                            asRoot: Bool = SystemPolicy.runsAsRoot,
                            prompt: any PermissionPrompt = FileDescriptorPrompt()) throws -> TerminalPermissionAuthorizer {
        let resolver = try PermissionResolver.load(configuration: configuration, configPath: configPath,
                                                   environment: environment, asRoot: asRoot)
        return TerminalPermissionAuthorizer(resolver: resolver, store: PermissionStore(environment: environment), prompt: prompt)
    }

    /// The refusal for each of `sources` (`nil`: allowed), asking once about those that need it.
    public func authorize(_ sources: [LocationSource]) async -> [PermissionError?] {
        var asking: [LocationSource] = []
        for source in sources where resolver.decide(source) == .ask && !asking.contains(source) {
            asking.append(source)
        }
        var outcomes: [LocationSource: PermissionError?] = [:]
        if !asking.isEmpty {
            if prompt.isInteractive {
                let question = asking
                let answered = try? await BlockingCall.run { [self] in .success(askOnce(question)) }
                outcomes = answered ?? [:]
            } else {
                for source in asking { outcomes[source] = .needsDecision(asking) }
                // Another source answers: say once what was skipped and how to use it.
                if sources.contains(where: { resolver.decide($0) == .allowed }) {
                    prompt.warn(PermissionError.skippedMessage(asking))
                }
            }
        }
        return sources.map { source in
            switch resolver.decide(source) {
            case .allowed: return nil
            case .refused(let error): return error
            case .ask: return outcomes[source] ?? .unanswered(source)
            }
        }
    }

    /// The outcome for each of `sources`, asking one question about those this run has not
    /// yet answered; blocks on the prompt.
    func askOnce(_ sources: [LocationSource]) -> [LocationSource: PermissionError?] {
        answers.withLock { answers in
            let unanswered = sources.filter { answers[$0] == nil }
            if !unanswered.isEmpty {
                for (source, outcome) in zip(unanswered, ask(unanswered)) { answers[source] = outcome }
            }
            return answers.filter { sources.contains($0.key) }
        }
    }

    private func ask(_ sources: [LocationSource]) -> [PermissionError?] {
        let question = PermissionQuestion(sources, location: resolver.location)
        for attempt in 1...PermissionQuestion.attempts {
            guard let line = prompt.ask(question.text) else {
                prompt.tell("")
                return sources.map { .unanswered($0) }
            }
            guard let answer = PromptAnswer(line, count: sources.count) else {
                if attempt < PermissionQuestion.attempts { prompt.tell(question.reminder) }
                continue
            }
            let saved = answer.remembered && remember(sources, answer.allowed)
            return zip(sources, answer.allowed).map { source, allowed in
                allowed ? nil : .declined(source, remembered: saved)
            }
        }
        return sources.map { .unanswered($0) }
    }

    /// Saves the decisions; on failure says so and goes on (the answer holds for this run).
    private func remember(_ sources: [LocationSource], _ allowed: [Bool]) -> Bool {
        do {
            for (source, allow) in zip(sources, allowed) {
                for warning in try store.remember(allow ? .allow : .deny, for: source) { prompt.warn(warning) }
            }
            let granted = zip(sources, allowed).filter(\.1).map(\.0.rawValue)
            let refused = zip(sources, allowed).filter { !$0.1 }.map(\.0.rawValue)
            let parts = (granted.isEmpty ? [] : [granted.joined(separator: ", ") + " allowed"])
                + (refused.isEmpty ? [] : [refused.joined(separator: ", ") + " denied"])
            prompt.tell("Remembered: \(parts.joined(separator: "; ")) (change with `here-weather permissions`).")
            return true
        } catch {
            prompt.warn("\(error)")
            return false
        }
    }
}
