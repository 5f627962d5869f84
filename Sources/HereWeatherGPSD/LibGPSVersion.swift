/// A libgps version here-weather can use, named by its soname: the gpsd releases that ship
/// it, their API version, and where that version's `struct gps_data_t` keeps the socket.
///
/// here-weather never compiles against a `gps.h`: it hands libgps an opaque handle larger than
/// any version's struct and reads one field of it, the socket, for `poll()`. The offsets come
/// from each version's real header (`LibGPSHeaderTests` compiles `Fixtures/libgps/probe.c`
/// against Debian's gps.h of gpsd 3.22, 3.25 and 3.27 and compares), and the session uses the
/// socket only once it is known to be connected to gpsd's port.
public struct LibGPSVersion: Sendable, Equatable {
    /// The soname the library file carries (`DT_SONAME`), its identity: "libgps.so.30".
    public let soname: String
    /// The gpsd releases whose libgps this is: "3.25".
    public let gpsd: String
    /// `GPSD_API_MAJOR_VERSION` of those releases: "14".
    public let api: String
    /// Where `gps_fd` is in `struct gps_data_t`, and its width in bytes (an `int`, or gpsd
    /// 3.27's `intptr_t`).
    public let socketOffset: Int
    public let socketWidth: Int
    /// The folder of `Fixtures/libgps` holding that release's gps.h, whose layout the tests
    /// check; `nil` for a version whose header could not be had (Debian has no gpsd 3.23 or
    /// 3.24: its first fields are 3.22's and 3.25's, and the socket check at run time holds).
    public let header: String?

    /// The versions here-weather reads, newest first: the order in which they are opened.
    public static let supported = [
        LibGPSVersion(soname: "libgps.so.32", gpsd: "3.27", api: "16", socketOffset: 32, socketWidth: 8, header: "3.27.5"),
        LibGPSVersion(soname: "libgps.so.30", gpsd: "3.25", api: "14", socketOffset: 24, socketWidth: 4, header: "3.25"),
        LibGPSVersion(soname: "libgps.so.29", gpsd: "3.23-3.24", api: "12-14", socketOffset: 24, socketWidth: 4, header: nil),
        LibGPSVersion(soname: "libgps.so.28", gpsd: "3.22", api: "11", socketOffset: 24, socketWidth: 4, header: "3.22"),
    ]

    /// The supported versions in one phrase, oldest first, for messages:
    /// "libgps.so.28 (gpsd 3.22), ... and libgps.so.32 (gpsd 3.27)".
    public static var supportedList: String {
        let names = supported.reversed().map { "\($0.soname) (gpsd \($0.gpsd))" }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    /// "libgps.so.30 (gpsd 3.25, API 14)".
    public var description: String { "\(soname) (gpsd \(gpsd), API \(api))" }
}
