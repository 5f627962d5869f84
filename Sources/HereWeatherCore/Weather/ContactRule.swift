/// The rule of the weather services whose terms require every request to identify its sender
/// (MET Norway, the US National Weather Service): without a contact nothing is sent, and
/// neither is anything to a base URL that `TransportSecurity` does not permit.
enum ContactRule {
    /// `contact` unless it is missing, empty or blank.
    static func contact(_ contact: String?) -> String? {
        contact.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
    }

    /// Throws `missingContact` (saying `howToSet`) without a contact, then `insecureBaseURL`
    /// when `baseURL` may not be used: before anything is asked of anyone.
    static func check(contact: String?, howToSet: String, baseURL: String, allowPlainHTTP: Bool,
                      kind: WeatherProviderKind) throws {
        guard contact != nil else {
            throw WeatherError.missingContact(kind, howToSet: howToSet)
        }
        try WeatherServiceResponse.requireSecure(baseURL, allowPlainHTTP: allowPlainHTTP, service: kind,
                                                 key: .baseURL(of: kind))
    }
}
