import CGPS

/// Facts about the libgps this program was built against.
///
/// The gpsd location source (reading fixes through `gps_open`/`gps_stream`/`gps_read`)
/// builds on this target; for now it proves that libgps is found and linked.
public enum LibGPS {
    /// The libgps API major version (11 for gpsd 3.22 on Debian 12).
    public static var apiMajorVersion: Int { Int(hw_gps_api_major_version()) }

    /// libgps's own text for one of its error codes, e.g. for `gps_open` failures.
    public static func errorText(_ code: Int32) -> String {
        guard let text = hw_gps_errstr(code) else { return "unknown libgps error \(code)" }
        return String(cString: text)
    }
}
