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
          here-weather permissions allow gpsd wifi ip  # for a status bar: no prompt
          here-weather permissions reset gpsd          # back to config or default
        """,
        subcommands: [Show.self, Allow.self, Deny.self, Reset.self],
        defaultSubcommand: Show.self
    )

    struct Options: ParsableArguments {
        @OptionGroup var configFile: ConfigOption

        /// The configuration, the resolver over it and the store, with warnings printed.
        func load() throws -> (PermissionResolver, PermissionStore) {
            let environment = CommandContext.current.environment
            do {
                let loaded = try configFile.load(environment: environment)
                Terminal.warn(loaded.warnings)
                let resolver = try PermissionResolver.load(configuration: loaded.configuration, configPath: loaded.path,
                                                           environment: environment, asRoot: CommandContext.current.runsAsRoot)
                Terminal.warn(resolver.warnings)
                return (resolver, PermissionStore(environment: environment))
            } catch let error as any UserFacingError {
                throw Terminal.fail(error, json: false)
            }
        }
    }

    /// The SOURCE arguments: one or more location sources, else exit 64.
    struct SourceArgument: ParsableArguments {
        @Argument(help: ArgumentHelp("One or more sources.", valueName: "source"))
        var named: [Choice<LocationSource>] = []

        func validate() throws {
            if named.isEmpty { throw ValidationError("Name at least one source: \(Choice<LocationSource>.choices).") }
            for source in named { _ = try source.checked("a source") }
        }

        /// The sources, in the order given.
        var sources: [LocationSource] { named.compactMap(\.value) }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the master switch and each source's state, with where it comes from.")
        @OptionGroup var options: Options

        func run() throws {
            let (resolver, _) = try options.load()
            try Terminal.output(PermissionsCommand.render(resolver), terminator: "")
        }
    }

    struct Allow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "allow", abstract: "Remember: each SOURCE may be used without asking.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run() throws {
            let (resolver, store) = try options.load()
            // All or nothing: a source the policy restricts stops the command before any change.
            for source in named.sources {
                if let refusal = resolver.grantRefusal(source) { throw Terminal.fail(refusal, json: false) }
            }
            try PermissionsCommand.change(.allow, named.sources, resolver, store)
        }
    }

    struct Deny: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deny", abstract: "Remember: each SOURCE may not be used.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run() throws {
            let (resolver, store) = try options.load()
            try PermissionsCommand.change(.deny, named.sources, resolver, store)
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Forget the remembered decision for each SOURCE: back to the config file's permission or the default.")
        @OptionGroup var options: Options
        @OptionGroup var named: SourceArgument

        func run() throws {
            let (resolver, store) = try options.load()
            try PermissionsCommand.change(nil, named.sources, resolver, store)
        }
    }

    /// Remembers `permission` (nil: forgets) for each source and prints their resulting states.
    static func change(_ permission: LocationPermission?, _ sources: [LocationSource],
                       _ resolver: PermissionResolver, _ store: PermissionStore) throws {
        var resolver = resolver
        for source in sources {
            do {
                // Warnings from the file were printed when it was loaded.
                _ = try store.remember(permission, for: source)
            } catch let error as any UserFacingError {
                throw Terminal.fail(error, json: false)
            }
            resolver.decisions[source] = permission
            let state = resolver.state(of: source)
            try Terminal.output("\(source.rawValue): \(state.permission.rawValue), \(phrase(state.origin))")
        }
        let master = resolver.masterSwitch
        if !master.enabled && permission != nil {
            try Terminal.output("Note: location services are off, \(phrase(master.origin)), so no source is used.")
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

    /// "by default", "set by config file (PATH)".
    static func phrase(_ origin: PermissionOrigin) -> String {
        origin == .defaultValue ? "by default" : "set by " + origin.description
    }
}
