/// Builds request URLs as text, percent-encoding query values.
enum URLText {
    /// `base` (with or without a trailing slash) + `path` + `?name=value&...`.
    static func join(_ base: String, path: String, query: [(String, String)]) -> String {
        var url = base
        while url.hasSuffix("/") { url.removeLast() }
        url += path
        if !query.isEmpty {
            url += "?" + query.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
        }
        return url
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters and `,`.
    static func encode(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ","):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
