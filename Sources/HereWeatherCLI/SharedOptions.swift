import ArgumentParser
import HereWeatherCore
#if canImport(Glibc)
import Glibc
#endif

/// `--config FILE`, declared once for every command that reads or writes the config file.
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("Use this config file instead of the default.", valueName: "file"),
            completion: .file())
    var config: String?

    /// The config file's path: --config, else `defaultPath` (the environment's:
    /// `$HERE_WEATHER_CONFIG`, XDG; `RunStorage.configFile`).
    func path(defaultPath: String) -> String {
        config ?? defaultPath
    }

    /// Loads the config file; its warnings are the caller's to print (`Run.configuration`).
    /// The default file may be missing (the defaults apply); a file named by --config must be
    /// there: one that cannot be opened is exit 66, not a run on the defaults that then
    /// advises editing the file it never read.
    func load(defaultPath: String) throws -> ConfigurationLoader.Loaded {
        if let config, let code = Self.openFailure(config) {
            throw ConfigFileMissing(path: config, code: code)
        }
        let loaded = try ConfigurationLoader.load(path: path(defaultPath: defaultPath))
        if let config, !loaded.fileExists {
            throw ConfigFileMissing(path: config, code: ENOENT)
        }
        return loaded
    }

    /// Why `path` cannot be opened as a file (`ENOENT`, `EACCES`, `EISDIR`...); `nil` when it
    /// can. What is in it is the loader's to judge.
    static func openFailure(_ path: String) -> Int32? {
        let descriptor = SystemPath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return EISDIR }
        return nil
    }
}

/// The file named by --config cannot be opened: exit 66 (EX_NOINPUT).
struct ConfigFileMissing: UserFacingError {
    let path: String
    /// Why, as `errno`: `ENOENT`, `EACCES`, `EISDIR`.
    let code: Int32

    var message: String {
        let advice: String
        switch code {
        case ENOENT:
            advice = "Check the path, or write a config file there with "
                + "`here-weather config init --config \(CommandLineCheck.quoted(path))`."
        case EISDIR:
            advice = "Name the config file, not its folder."
        case _ where ResourceShortage.isShortage(code):
            return "cannot read the config file \(path) (--config): \(ResourceShortage.reason(code)). " + ResourceShortage.advice
        default:
            advice = "Make it readable, or name another file."
        }
        return "cannot read the config file \(path) (--config): \(String(cString: strerror(code))). " + advice
    }

    var exitStatus: ExitStatus { .noInput }
}

/// `--verbose`, declared once for every command that talks to web services.
struct VerboseOption: ParsableArguments {
    @Flag(help: "Show each web request exactly as sent (keys redacted), on stderr.")
    var verbose = false
}

/// `--lang CODE`: its help and its check, for every command whose output people read in their
/// language (`Run.speaking` decides the language). Each declares the option itself (an option group
/// of its own cost every run about 3% more instructions in argument parsing).
enum LanguageOption {
    static let help = ArgumentHelp("Speak this language (de, fr, pt-BR, ... or a locale name such as de_AT.UTF-8) "
                                   + "instead of [output] language or the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG).",
                                   valueName: "code")

    /// Fails (exit 64) when `--lang` names a language here-weather does not speak.
    static func validate(_ lang: String?) throws {
        guard let lang else { return }
        do {
            try LanguageChoice.check(lang, origin: .commandLine)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
