/// Reads the NWS's headline form, which some services pass on as an alert's title: "Small
/// Craft Advisory issued November 22 at 9:49AM EST until November 23 at 4:00AM EST by NWS
/// Tampa Bay Ruskin FL".
enum AlertHeadline {
    /// The event ("Small Craft Advisory") and the issuer ("NWS Tampa Bay Ruskin FL", when
    /// named after " by "). A title in another form is the event as it is.
    static func parts(_ headline: String) -> (event: String, issuer: String?) {
        guard let cut = headline.firstRange(of: " issued ") ?? headline.firstRange(of: " until ") else {
            return (headline, nil)
        }
        let event = String(headline[..<cut.lowerBound])
        guard !event.isEmpty else { return (headline, nil) }
        let rest = headline[cut.upperBound...]
        var issuer: String?
        if let by = rest.ranges(of: " by ").last {
            let name = rest[by.upperBound...]
            issuer = name.isEmpty ? nil : String(name)
        }
        return (event, issuer)
    }
}
