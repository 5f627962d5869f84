/// Why gpsd cannot be read through the libgps on this machine: none is installed, or the one
/// found is not a version here-weather knows how to use. Each message names the file found and
/// a next step that works (never "install" what is there, never a step that crashes).
public enum LibGPSProblem: Sendable, Equatable {
    /// No libgps at all (neither a versioned library nor libgps-dev's `libgps.so`).
    case missing
    /// `file` carries a soname no supported version has (`nil`: it has none).
    case unknownVersion(file: String, soname: String?)
    /// `file` lacks a function every libgps has (`gps_read`, ...).
    case missingFunction(file: String, soname: String, function: String)
    /// Once connected, `file`'s handle did not hold the socket where its version keeps it.
    case socketNotFound(file: String, soname: String)

    /// The whole line for a gpsd at `address`; `supported` lists the versions here-weather
    /// reads ("libgps.so.28 (gpsd 3.22), ... and libgps.so.32 (gpsd 3.27)").
    public func message(address: String, supported: String) -> String {
        let otherSource = "use another location source (`here-weather where --source ip`, or a fixed place)"
        switch self {
        case .missing:
            return "Cannot read gpsd on \(address): gpsd's client library, libgps, is not installed. Install it "
                + "(Debian 13 and Ubuntu 24.04 or later: `sudo apt install libgps30t64`; Debian 12: `sudo apt install libgps28`), "
                + "or \(otherSource)."
        case .unknownVersion(let file, let soname):
            let name = soname.map { " (\($0))" } ?? " (a file without a soname)"
            return "Cannot read gpsd on \(address): the libgps found, \(file)\(name), is a version this here-weather cannot use; "
                + "it reads \(supported). Install one of those if your release has it (`apt-cache search libgps`), "
                + "or \(otherSource)."
        case .missingFunction(let file, let soname, let function):
            return "Cannot read gpsd on \(address): the libgps found, \(file) (\(soname)), has no \(function), which every "
                + "libgps has, so it is damaged or not gpsd's. Reinstall the package that holds it (`dpkg -S \(file)` names it), "
                + "or \(otherSource)."
        case .socketNotFound(let file, let soname):
            return "Cannot read gpsd on \(address): the libgps found, \(file) (\(soname)), did not keep its connection where "
                + "that version of libgps does, so it is not the version its name says and here-weather cannot use it; "
                + "it reads \(supported). Install one of those if your release has it (`apt-cache search libgps`), "
                + "or \(otherSource)."
        }
    }
}
