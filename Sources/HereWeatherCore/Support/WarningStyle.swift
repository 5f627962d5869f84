/// The one style of a warning line on stderr: `here-weather: warning: <message>`.
///
/// Core code returns warnings as bare messages ("unknown key location.soruces at ... (ignored)");
/// the two places that write them, the run's `Console.warn` and `PermissionPrompt.warn`,
/// put them in this form, so no message carries a prefix of its own.
public enum WarningStyle {
    /// What starts every warning line.
    public static let prefix = "here-weather: warning: "

    /// `message` as a warning line.
    public static func line(_ message: String) -> String { prefix + message }
}
