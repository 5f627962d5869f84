/// Works out whether location services are on and each source's effective permission, with
/// where each comes from.
///
/// Precedence, strongest first:
/// 1. the system policy: location off, or the source `restricted` (users cannot override it);
/// 2. the master switch in the config file (`[location] enabled = false`);
/// 3. a remembered decision (`permissions.toml`: "always"/"never" answers, `permissions allow|deny`);
/// 4. the config file's `[location.<source>] permission`;
/// 5. the default, `LocationPermission.defaultPermission(for:)`.
///
/// The switch and the source permission are reported separately; `decide(_:)` combines them.
public struct PermissionResolver: Sendable {
    /// The master switch and where its value comes from.
    public struct MasterSwitch: Sendable, Equatable {
        public var enabled: Bool
        public var origin: PermissionOrigin
    }

    /// A source's effective permission and where it comes from.
    public struct SourceState: Sendable, Equatable {
        public var source: LocationSource
        public var permission: LocationPermission
        public var origin: PermissionOrigin
    }

    /// What `decide(_:)` concludes for a source.
    public enum Decision: Sendable, Equatable {
        /// The source may be used.
        case allowed
        /// The user must be asked (on a terminal) first.
        case ask
        /// The source may not be used, and why.
        case refused(PermissionError)
    }

    /// `[location]` of the user's configuration.
    public var location: Configuration.LocationSettings
    /// The config file's path, for messages.
    public var configPath: String
    public var policy: SystemPolicy
    /// The remembered decisions.
    public var decisions: PermissionStore.Decisions
    /// The decisions file's path, for messages.
    public var storePath: String
    /// What loading noticed (policy and decisions file), for stderr.
    public var warnings: [String]

    public init(location: Configuration.LocationSettings, configPath: String, policy: SystemPolicy,
                decisions: PermissionStore.Decisions, storePath: String, warnings: [String] = []) {
        self.location = location
        self.configPath = configPath
        self.policy = policy
        self.decisions = decisions
        self.storePath = storePath
        self.warnings = warnings
    }

    /// Reads the system policy and the remembered decisions named by `environment` (the policy
    /// from another file only `asRoot`: `SystemPolicy.load(environment:asRoot:)`).
    /// Throws `SystemPolicyError` (exit 78) for a policy file that exists but cannot be used.
    public static func load(configuration: Configuration, configPath: String, environment: [String: String],
                            asRoot: Bool = SystemPolicy.runsAsRoot) throws -> PermissionResolver {
        let policy = try SystemPolicy.load(environment: environment, asRoot: asRoot)
        let store = PermissionStore(environment: environment)
        let loaded = store.load()
        return PermissionResolver(location: configuration.location, configPath: configPath, policy: policy,
                                  decisions: loaded.decisions, storePath: store.path,
                                  warnings: policy.warnings + loaded.warnings)
    }

    /// Whether location services are on: the policy's switch, then the config file's.
    /// (An `enabled = true` written in the config file is reported as the default: the file
    /// model does not say which keys were written.)
    public var masterSwitch: MasterSwitch {
        if !policy.locationEnabled { return MasterSwitch(enabled: false, origin: .systemPolicy(path: policy.path)) }
        if !location.enabled { return MasterSwitch(enabled: false, origin: .configFile(path: configPath)) }
        return MasterSwitch(enabled: true, origin: .defaultValue)
    }

    /// The source's own permission, regardless of the master switch.
    public func state(of source: LocationSource) -> SourceState {
        if policy.restricted.contains(source) {
            return SourceState(source: source, permission: .restricted, origin: .systemPolicy(path: policy.path))
        }
        if let decision = decisions[source] {
            return SourceState(source: source, permission: decision, origin: .remembered(path: storePath))
        }
        if let configured = location.permissions[source] {
            return SourceState(source: source, permission: configured, origin: .configFile(path: configPath))
        }
        return SourceState(source: source, permission: LocationPermission.defaultPermission(for: source), origin: .defaultValue)
    }

    /// Every permission source's state, in `LocationSource.permissionSources` order.
    public var states: [SourceState] { LocationSource.permissionSources.map(state(of:)) }

    /// Whether `source` may be used now. (Explicit input, `--lat/--lon` and `--city`, is not
    /// a source and needs no decision.) The administrator's refusals come first, so that a user is never told to change a setting
    /// that would only lead to the policy's refusal.
    public func decide(_ source: LocationSource) -> Decision {
        if !policy.locationEnabled { return .refused(.disabledByPolicy(policyPath: policy.path)) }
        let state = state(of: source)
        if state.permission == .restricted { return .refused(.restricted(source, policyPath: policy.path)) }
        if !location.enabled { return .refused(.disabledByUser(configPath: configPath)) }
        switch state.permission {
        case .allow: return .allowed
        case .ask: return .ask
        case .deny: return .refused(.denied(source, origin: state.origin))
        case .restricted: return .refused(.restricted(source, policyPath: policy.path))
        }
    }

    /// Why the user may not grant `source` (`permissions allow`), or `nil` when they may:
    /// the policy restricts it or turns location off.
    public func grantRefusal(_ source: LocationSource) -> PermissionError? {
        if !policy.locationEnabled { return .disabledByPolicy(policyPath: policy.path) }
        if policy.restricted.contains(source) { return .restricted(source, policyPath: policy.path) }
        return nil
    }
}
