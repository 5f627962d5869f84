extension Configuration {
    /// The settings as a run uses them: the one place the language, the characters, the clock
    /// and the units are decided from the environment.
    ///
    /// - The language and its customs (`LanguageChoice`): `language` (`--lang`), then
    ///   `[output] language`, then the environment as gettext reads it.
    /// - `[output] clock` and `[weather] units` left at "auto": the locale's country's
    ///   (`UserLocale.clock`, `UserLocale.units`).
    /// - The characters (`TextCharset.choose`): ASCII when the locale is not UTF-8 or the icons are.
    ///
    /// `notes` say what was decided and why, for `--verbose`. Throws when `language` names a
    /// language here-weather does not speak (exit 64).
    public func forRun(environment: [String: String], language: String? = nil) throws(LanguageError)
        -> (configuration: Configuration, notes: [String]) {
        let choice = try LanguageChoice.resolve(environment: environment, configured: output.language,
                                                commandLine: language)
        var settings = self
        settings.output.locale = choice.locale
        // Deciding "auto" fixes the value: the run's settings say what it is.
        if settings.output.clockIsAuto { settings.output.clock = choice.locale.clock }
        if settings.weather.unitsAreAuto { settings.weather.units = choice.locale.units }
        settings.output = settings.output.forLocale(environment)
        return (settings, choice.notes)
    }
}
