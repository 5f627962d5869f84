import HereWeatherCore

/// What must hold for any error a body can cause: its message is one line with no control
/// characters (a hostile server cannot draw on the terminal), and no part of a secret is in it.
public enum ErrorChecks {
    /// The token or key the fuzz targets configure; the body may contain it, the message never.
    public static let secret = "tok3nSECRETv4lue"

    public static func check(_ error: any Error) {
        guard let error = error as? any UserFacingError else {
            require(false, "not a user-facing error: \(error)")
            return
        }
        let message = error.message
        require(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) },
                "a control character in the message: \(message.debugDescription)")
        // Any 6 characters of the secret in a row would give part of it away.
        let secret = Array(secret)
        for start in 0...(secret.count - 6) {
            let part = String(secret[start..<start + 6])
            require(!message.contains(part), "part of the secret (\(part)) in the message: \(message)")
        }
    }
}
