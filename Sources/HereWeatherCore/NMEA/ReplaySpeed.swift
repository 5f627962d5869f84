/// How fast an NMEA log is played back.
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
    /// As fast as it can be read: the default, since one shot needs no recorded pace.
    case max
    /// This many times the recorded pace (1 = as recorded).
    case factor(Double)

    /// `max` or a positive number (`1`, `10`, `0.5`).
    public init?(_ text: String) {
        if text.lowercased() == "max" {
            self = .max
        } else if let value = DecimalText.number(text), value > 0 {
            self = .factor(value)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .max: return "max"
        case .factor(let value): return JSONOutput.format(value)
        }
    }
}
