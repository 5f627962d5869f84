/// The postal abbreviations of the US states and DC ("FL" for Florida), as people write them
/// after a city name ("Melbourne, FL"); geocoding services name the region in full.
enum USStates {
    /// Abbreviation to the name the services give as the region (GeoNames' admin1 names).
    static let names: [String: String] = [
        "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
        "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "Washington, D.C.",
        "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
        "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
        "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
        "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
        "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
        "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
        "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
        "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
        "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    ]

    /// Abbreviations that are also ISO 3166-1 country codes ("CA": California or Canada,
    /// "IN": Indiana or India): such a qualifier may mean either, so no country filter is sent.
    static let alsoCountryCodes: Set<String> = [
        "AL", "AR", "AZ", "CA", "CO", "DE", "GA", "ID", "IL", "IN", "KY", "LA", "MA", "MD", "ME",
        "MN", "MO", "MS", "MT", "NC", "NE", "PA", "SC", "SD", "TN", "VA",
    ]

    /// The state `text` abbreviates (any case), or nil.
    static func name(abbreviated text: String) -> String? { names[text.uppercased()] }

    /// The abbreviation of the state named `region`, or nil.
    static func abbreviation(of region: String) -> String? {
        names.first { $0.value.lowercased() == region.lowercased() }?.key
    }
}
