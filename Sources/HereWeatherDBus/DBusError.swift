import HereWeatherCore

/// Why a D-Bus exchange failed.
public enum DBusError: UserFacingError, Equatable {
    /// libsystemd (sd-bus) could not be loaded.
    case libraryMissing
    /// The system bus could not be reached, or it closed the connection.
    case noBus(reason: String)
    /// No answer by the deadline.
    case timedOut
    /// The task was cancelled while waiting.
    case cancelled
    /// The other side answered with a D-Bus error (`org.freedesktop.DBus.Error.ServiceUnknown`, ...).
    case remote(name: String, message: String)
    /// A value did not have the expected type; says what was expected.
    case typeMismatch(String)

    public var message: String {
        switch self {
        case .libraryMissing:
            return "Cannot use D-Bus: libsystemd (sd-bus) could not be loaded. Install it (Debian and Ubuntu: apt install libsystemd0)."
        case .noBus(let reason):
            return "Cannot reach the system D-Bus: \(reason). Check that dbus is running (`systemctl status dbus`), or DBUS_SYSTEM_BUS_ADDRESS if you set it."
        case .timedOut:
            return "No answer on the system D-Bus in time. Try again, or a longer --timeout."
        case .cancelled:
            return "The D-Bus request was cancelled."
        case .remote(let name, let message):
            return message.isEmpty ? "D-Bus error \(name)." : "D-Bus error \(name): \(ServiceText.oneLine(message))"
        case .typeMismatch(let expected):
            return "Unexpected D-Bus answer: \(expected)."
        }
    }

    public var exitStatus: ExitStatus { .noLocation }

    /// Whether this failure concerns one message alone (an error reply, a value of the wrong
    /// type): the connection still serves, and the next message may be fine.
    public var concernsOneMessage: Bool {
        switch self {
        case .remote, .typeMismatch: return true
        case .libraryMissing, .noBus, .timedOut, .cancelled: return false
        }
    }

    /// Whether the named service is not running (no owner for the destination name).
    public var isServiceUnknown: Bool {
        if case .remote(let name, _) = self {
            return name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        }
        return false
    }
}
