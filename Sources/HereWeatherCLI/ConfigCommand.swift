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
        subcommands: [Path.self, Show.self, Init.self]
    )

    struct Path: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the config file's path.")
        @OptionGroup var options: ConfigOption

        func run() throws {
            try Terminal.output(options.path())
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective configuration (defaults filled in, API keys redacted).")
        @OptionGroup var options: ConfigOption

        func run() throws {
            do {
                let loaded = try options.load()
                Terminal.warn(loaded.warnings)
                try Terminal.output("# " + (loaded.fileExists ? loaded.path : "\(loaded.path) (not found: defaults)"))
                try Terminal.output(ConfigurationText.effective(loaded.configuration, environment: CommandContext.current.environment),
                                    terminator: "")
            } catch let error as any UserFacingError {
                throw Terminal.fail(error, json: false)
            }
        }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init", abstract: "Write a commented default config file.")
        @OptionGroup var options: ConfigOption
        @Flag(help: "Replace an existing file.")
        var force = false

        func run() throws {
            let path = options.path()
            do {
                try AtomicFile.write(ConfigurationText.template, to: path, overwrite: force)
            } catch let error as AtomicFile.WriteError {
                if error.exists && !SystemPath.isFolder(path) {
                    Terminal.standardError("here-weather: \(path) already exists; add --force to replace it.")
                } else {
                    let code = error.exists ? EISDIR : error.code
                    Terminal.standardError("here-weather: cannot write \(path): \(String(cString: strerror(code))). "
                        + FileAdvice.forWriting(path, code: code, folder: "its folder (or pass --config FILE)"))
                }
                throw ExitCode(ExitStatus.cannotCreate.rawValue)
            }
            try Terminal.output("Wrote \(path). Set [location.fixed] latitude and longitude, then run here-weather.")
        }
    }
}
