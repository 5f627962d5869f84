#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How accurate a fix must be, like `CLLocationManager.desiredAccuracy`.
public enum DesiredAccuracy: Sendable, Equatable {
    /// The most accurate fix seen before the deadline.
    case best
    /// A fix whose horizontal accuracy is this many metres or better.
    case within(metres: Double)
    /// The first real fix, whatever its accuracy.
    case any

    /// The default: weather needs no more than 3 km.
    public static let threeKilometres = DesiredAccuracy.within(metres: 3000)

    /// Whether a fix with `accuracy` metres (`nil`: unknown) satisfies this level.
    public func isMet(by accuracy: Double?) -> Bool {
        switch self {
        case .any: return true
        case .best: return false
        case .within(let metres):
            guard let accuracy else { return false }
            return accuracy <= metres
        }
    }
}

/// One single-shot location request, like `CLLocationManager.requestLocation()`.
///
/// The deadline belongs to the request so that every source honours the same one.
public struct LocationRequest: Sendable {
    public var desiredAccuracy: DesiredAccuracy
    /// When the request gives up and returns the best fix seen, or fails.
    public var deadline: ContinuousClock.Instant
    /// Older fixes are ignored; `nil` accepts any age.
    public var maxAge: Duration?

    public init(desiredAccuracy: DesiredAccuracy = .threeKilometres,
                deadline: ContinuousClock.Instant = .now + .seconds(10),
                maxAge: Duration? = .seconds(300)) {
        self.desiredAccuracy = desiredAccuracy
        self.deadline = deadline
        self.maxAge = maxAge
    }
}
