/// Why Wi-Fi positioning gave no location: one line each, saying what to do.
public enum WiFiError: UserFacingError, Equatable {
    /// NetworkManager does not own its name on the system bus.
    case noNetworkManager
    /// NetworkManager runs but lists no Wi-Fi device.
    case noWiFiDevice
    /// Wi-Fi is switched off: in software (`nmcli radio wifi off`) or by a hardware switch.
    case wifiOff(hardwareSwitch: Bool)
    /// Too few access points may be sent; `summary` says what was seen and dropped.
    case tooFewAccessPoints(summary: String)
    /// NetworkManager could not be asked (D-Bus trouble); `reason` says why.
    case scanFailed(reason: String)
    /// Reading the `seen` access points took (nearly) all of the `seconds` timeout, so the
    /// service at `host` was not asked.
    case noTimeLeftToAsk(host: String, seen: Int, seconds: Double)
    /// The service at `host` does not know the networks around (HTTP 404).
    case notInDatabase(host: String)
    /// The service at `host` refused or failed (400, 403, 429, 5xx, no answer, a body without a location).
    case serviceFailed(host: String, reason: String)
    /// The service at `host` answered the POST with a redirect (HTTP `status`) to `target` (a host, or
    /// "another address" when the answer named none), which is never followed: the access
    /// points go only to the service the configuration names.
    case redirected(host: String, status: Int, target: String)

    public var message: String {
        switch self {
        case .noNetworkManager:
            return "No Wi-Fi positioning: NetworkManager is not running (nothing owns org.freedesktop.NetworkManager on the system D-Bus). Start it (`sudo systemctl start NetworkManager`), or remove \"wifi\" from \(ConfigKey.locationSources)."
        case .noWiFiDevice:
            return "No Wi-Fi positioning: NetworkManager has no Wi-Fi device. Check that the Wi-Fi card is recognised (`nmcli device`), or remove \"wifi\" from \(ConfigKey.locationSources)."
        case .wifiOff(let hardwareSwitch):
            return hardwareSwitch
                ? "No Wi-Fi positioning: Wi-Fi is switched off by a hardware switch or key (rfkill). Switch it on, then check with `nmcli radio wifi`."
                : "No Wi-Fi positioning: Wi-Fi is switched off. Turn it on with `nmcli radio wifi on`."
        case .tooFewAccessPoints(let summary):
            return "No Wi-Fi positioning: \(summary); at least \(WiFiSelection.minimumNeeded) are needed, so nothing was sent. Try again where more Wi-Fi networks are in range, or use another source."
        case .scanFailed(let reason):
            return "No Wi-Fi positioning: cannot read the Wi-Fi networks from NetworkManager: \(reason)"
        case .noTimeLeftToAsk(let service, let seen, let seconds):
            return "No Wi-Fi positioning: reading the \(seen) access points NetworkManager lists took the \(JSONOutput.format(seconds)) s timeout, so nothing was sent to \(service). Try a longer --timeout (or [location] timeout)."
        case .notInDatabase(let service):
            return "No Wi-Fi positioning: the Wi-Fi networks around you are not in \(service)'s database (HTTP 404). Use another source, or set \(ConfigKey.wifiBaseURL) to another service."
        case .serviceFailed(let service, let reason):
            return "No Wi-Fi positioning from \(service): \(reason). Check the network connection and try again later, or set \(ConfigKey.wifiBaseURL) to another service."
        case .redirected(let service, let status, let target):
            return "No Wi-Fi positioning from \(service): it redirected the request to \(target) (HTTP \(status)). Redirects are not followed, so nothing was sent there. If \(target) is the service's new address, set \(ConfigKey.wifiBaseURL) to it."
        }
    }

    public var exitStatus: ExitStatus { .noLocation }
}
