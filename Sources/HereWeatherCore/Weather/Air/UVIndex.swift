/// The UV index and WHO's categories for it.
///
/// WHO, "Global Solar UV Index: A Practical Guide" (2002), table 1: low 0-2, moderate 3-5,
/// high 6-7, very high 8-10, extreme 11 and above. A fractional index is put in the
/// category of the whole number it rounds to (2.4 is low, 2.5 moderate), as the guide reports
/// the index rounded.
public enum UVIndex {
    /// WHO's exposure categories.
    public enum Category: String, Sendable, CaseIterable {
        case low, moderate, high, veryHigh = "very_high", extreme
    }

    /// The index at which the waybar class `uv-high` starts (WHO's "high").
    public static let high = 6.0

    /// The category of `index` (rounded to a whole number first).
    public static func category(_ index: Double) -> Category {
        switch index.rounded() {
        case ..<3: return .low
        case ..<6: return .moderate
        case ..<8: return .high
        case ..<11: return .veryHigh
        default: return .extreme
        }
    }

    /// A service's value as an index: finite, not negative, below 100 (the highest measured
    /// is about 43); otherwise none.
    static func reading(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0, value < 100 else { return nil }
        return value
    }
}
