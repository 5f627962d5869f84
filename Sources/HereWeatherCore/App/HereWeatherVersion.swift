/// The program's version, shown by `--version` and sent in User-Agent headers.
public enum HereWeatherVersion {
    public static let current = "0.1.0"
}
