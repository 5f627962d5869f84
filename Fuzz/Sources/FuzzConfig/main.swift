import FuzzSupport
import HereWeatherCore

/// The config file: the TOML parser, then `ConfigurationLoader`'s reading of the table. A
/// configuration that loads renders (`ConfigurationText.effective`, what `config show`
/// prints) as text that loads again and renders the same: the rendering loses nothing but
/// the secrets, which it never shows.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let text = String(validating: input.bytes, as: UTF8.self),
          let (config, _) = try? ConfigurationLoader.parse(text, path: "fuzz.toml") else { return 0 }
    let rendered = ConfigurationText.effective(config, environment: [:])
    let again: Configuration
    do {
        (again, _) = try ConfigurationLoader.parse(rendered, path: "rendered.toml")
    } catch {
        require(false, "the rendered config does not load (\(error)):\n\(rendered)")
        return 0
    }
    require(ConfigurationText.effective(again, environment: [:]) == rendered,
            "the rendered config renders differently once loaded:\n\(rendered)")
    return 0
}
