import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `here-weather permissions [show] | allow | deny | reset SOURCE`.
struct PermissionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "Show or change which location sources here-weather may use.",
        discussion: """
        Each source is allowed, denied, or asks first (on a terminal; without one it is \
        refused with the command that grants it). Where a state comes from, strongest first: \
        the system policy (\(SystemPolicy.defaultPath); root may name another in $\(SystemPolicy.pathVariable)), \
        a remembered decision ($XDG_STATE_HOME/here-weather/permissions.toml), the config \
        file's [location.SOURCE] permission, the default. Remembered decisions never rewrite \
        the config file.

        Examples:
          here-weather permissions                     # each source, state, origin
          here-weather permissions show --json         # the same as one JSON object
          here-weather permissions allow gpsd wifi ip  # for a status bar: no prompt
          here-weather permissions allow all           # every source
          here-weather permissions reset gpsd          # back to config or default
        """,
        subcommands: [Show.self, Allow.self, Deny.self, Reset.self],
        defaultSubcommand: Show.self
    )

    struct Options: ParsableArguments {
        @OptionGroup var configFile: ConfigOption

        /// The configuration, the resolver over it and the store, with warnings printed.
        func load(_ context: CommandContext) throws -> (PermissionResolver, PermissionStore) {
            let storage = RunStorage(environment: context.environment)
            do {
                let loaded = try Run.configuration(context, configFile, storage: storage)
                let resolver = try PermissionResolver.load(configuration: loaded.configuration, configPath: loaded.path,
                                                           environment: context.environment, asRoot: context.runsAsRoot,
                                                           store: storage.permissions)
                context.console.warn(resolver.warnings)
                return (resolver, storage.permissions)
            } catch let error as any UserFacingError {
                throw context.fail(error)
            }
        }
    }

    /// The SOURCE arguments: one or more location sources, or `all`, else exit 64.
    struct SourceArgument: ParsableArguments {
        @Argument(help: ArgumentHelp("One or more sources (\(Choice<LocationSource>.choices)), or all.", valueName: "source"),
                  completion: .list(LocationSource.allValueStrings + ["all"]))
        var named: [String]

        func validate() throws {
            if named.isEmpty { throw ValidationError("Name at least one source: \(Choice<LocationSource>.choices), or all.") }
            if named.contains(where: { $0.lowercased() == "all" }) {
                if named.count > 1 { throw ValidationError("'all' names every source: give it alone.") }
                return
            }
            for word in named { _ = try Choice<LocationSource>(argument: word).checked("source") }
        }

        /// The sources, in the order given; every source for `all`.
        var sources: [LocationSource] {
            named.map { $0.lowercased() } == ["all"] ? LocationSource.permissionSources
                : named.compactMap { Choice<LocationSource>(argument: $0).value }
        }
    }

    struct Show: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the master switch and each source's state, with where it comes from.")
        @OptionGroup var options: Options
        @Flag(help: "Print them as one JSON object on one line.")
        var json = false

        func run(in context: CommandContext) throws {
            let (resolver, _) = try options.load(context)
            if json {
                try context.output(PermissionsCommand.json(resolver))
            } else {
                try context.output(PermissionsCommand.render(resolver), terminator: "")
            }
        }
    }

    struct Allow: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "allow", abstract: "Remember: each SOURCE may be used without asking.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run(in context: CommandContext) throws {
            let (resolver, store) = try options.load(context)
            // All or nothing: a source the policy restricts stops the command before any change.
            for source in named.sources {
                if let refusal = resolver.grantRefusal(source) { throw context.fail(refusal) }
            }
            try PermissionsCommand.change(context, .allow, named.sources, resolver, store)
        }
    }

    struct Deny: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "deny", abstract: "Remember: each SOURCE may not be used.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run(in context: CommandContext) throws {
            let (resolver, store) = try options.load(context)
            try PermissionsCommand.change(context, .deny, named.sources, resolver, store)
        }
    }

    struct Reset: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Forget the remembered decision for each SOURCE: back to the config file's permission or the default.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run(in context: CommandContext) throws {
            let (resolver, store) = try options.load(context)
            try PermissionsCommand.change(context, nil, named.sources, resolver, store)
        }
    }

    /// Remembers `permission` (nil: forgets) for each source and prints their resulting states.
    static func change(_ context: CommandContext, _ permission: LocationPermission?, _ sources: [LocationSource],
                       _ resolver: PermissionResolver, _ store: PermissionStore) throws {
        var resolver = resolver
        for source in sources {
            do {
                // Warnings from the file were printed when it was loaded.
                _ = try store.remember(permission, for: source)
            } catch let error as any UserFacingError {
                throw context.fail(error)
            }
            resolver.decisions[source] = permission
            let state = resolver.state(of: source)
            try context.output("\(source.rawValue): \(state.permission.rawValue), \(phrase(state.origin))")
        }
        let master = resolver.masterSwitch
        if !master.enabled && permission != nil {
            try context.output("Note: location services are off, \(phrase(master.origin)), so no source is used.")
        }
    }

    /// The table `permissions` prints.
    static func render(_ resolver: PermissionResolver) -> String {
        let master = resolver.masterSwitch
        var text = "Location services: \(master.enabled ? "on" : "off"), \(phrase(master.origin))\n\n"
        let rows = [["SOURCE", "STATE", "FROM"]] + resolver.states.map { [$0.source.rawValue, $0.permission.rawValue, $0.origin.description] }
        let widths = (0..<2).map { column in rows.map { TextWidth.columns($0[column]) }.max() ?? 0 }
        for row in rows {
            text += TextWidth.pad(row[0], widths[0]) + "  " + TextWidth.pad(row[1], widths[1]) + "  " + row[2] + "\n"
        }
        text += "\nChange with `here-weather permissions allow|deny|reset SOURCE...`.\n"
        switch master.origin {
        case .configFile(let path) where !master.enabled:
            text += "Turn location services on with enabled = true under [location] in \(path).\n"
        case .systemPolicy where !master.enabled:
            text += "Location services are turned off by the administrator; this cannot be changed here.\n"
        default:
            break
        }
        return text
    }

    /// `permissions show --json`: `{"enabled":true,"enabled_from":{"kind":"default","path":null},
    /// "sources":[{"source":"gpsd","state":"ask","from":{"kind":"default","path":null}},...]}`.
    static func json(_ resolver: PermissionResolver) -> String {
        func origin(_ origin: PermissionOrigin) -> JSONOutput {
            let (kind, path): (String, String?) = switch origin {
            case .systemPolicy(let path): ("system_policy", path)
            case .remembered(let path): ("remembered", path)
            case .configFile(let path): ("config_file", path)
            case .defaultValue: ("default", nil)
            }
            return .object([("kind", .string(kind)), ("path", path.map(JSONOutput.string) ?? .null)])
        }
        let master = resolver.masterSwitch
        return JSONOutput.object([
            ("enabled", .bool(master.enabled)),
            ("enabled_from", origin(master.origin)),
            ("sources", .array(resolver.states.map { state in
                .object([("source", .string(state.source.rawValue)), ("state", .string(state.permission.rawValue)),
                         ("from", origin(state.origin))])
            })),
        ]).serialized()
    }

    /// "by default", "set by config file (PATH)".
    static func phrase(_ origin: PermissionOrigin) -> String {
        origin == .defaultValue ? "by default" : "set by " + origin.description
    }
}
