import FuzzSupport
import HereWeatherCore

/// The remembered permission decisions (`PermissionStore.parse`). Whatever the text, the
/// result is decisions for known sources and warnings of one line each; the decisions,
/// written again (`render`), read back the same with no warning.
let store = PermissionStore(path: "/home/user/.local/state/here-weather/permissions.toml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let text = String(validating: FuzzInput(data, size).bytes, as: UTF8.self) else { return 0 }
    let loaded = store.parse(text)
    for warning in loaded.warnings {
        require(!warning.contains("\n"), "a warning over two lines: \(warning.debugDescription)")
    }
    for source in loaded.decisions.keys {
        require(LocationSource.permissionSources.contains(source), "a decision for \(source)")
    }
    let again = store.parse(PermissionStore.render(loaded.decisions))
    require(again.decisions == loaded.decisions && again.warnings.isEmpty, "the decisions do not read back: \(again)")
    return 0
}
