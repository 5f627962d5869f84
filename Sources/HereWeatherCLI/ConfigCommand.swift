import ArgumentParser
import HereWeatherCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `here-weather config path|show|init`.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show, locate or create the config file.",
        subcommands: [Path.self, Show.self, Init.self],
        defaultSubcommand: Show.self
    )

    struct Path: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the config file's path.")
        @OptionGroup var options: ConfigOption

        func run(in context: CommandContext) throws {
            try context.output(options.path(defaultPath: RunStorage(environment: context.environment).configFile))
        }
    }

    struct Show: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective configuration (defaults filled in, API keys redacted).")
        @OptionGroup var options: ConfigOption

        func run(in context: CommandContext) throws {
            do {
                let loaded = try Run.configuration(context, options, storage: RunStorage(environment: context.environment))
                try context.output("# " + (loaded.fileExists ? loaded.path : "\(loaded.path) (not found: defaults)"))
                try context.output(ConfigurationText.effective(loaded.configuration, environment: context.environment),
                                   terminator: "")
            } catch let error as any UserFacingError {
                throw context.fail(error)
            }
        }
    }

    struct Init: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Write a commented default config file.")
        @OptionGroup var options: ConfigOption
        @Flag(help: "Replace an existing file.")
        var force = false

        func run(in context: CommandContext) throws {
            let path = options.path(defaultPath: RunStorage(environment: context.environment).configFile)
            do {
                try AtomicFile.write(ConfigurationText.template, to: path, overwrite: force)
            } catch let error as AtomicFile.WriteError {
                if error.exists && !SystemPath.isFolder(path) {
                    context.console.line("here-weather: \(path) already exists; add --force to replace it.")
                } else {
                    let code = error.exists ? EISDIR : error.code
                    context.console.line("here-weather: cannot write \(path): \(String(cString: strerror(code))). "
                        + FileAdvice.forWriting(path, code: code, folder: "its folder (or pass --config FILE)"))
                }
                throw ExitCode(ExitStatus.cannotCreate.rawValue)
            }
            try context.output("Wrote \(path). Set [location.fixed] latitude and longitude, then run here-weather.")
        }
    }
}
