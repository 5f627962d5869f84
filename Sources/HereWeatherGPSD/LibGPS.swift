import CGPS
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore

/// A libgps that here-weather can use: the file the loader opened, its version (known from
/// the soname the file carries) and its functions.
public struct LibGPSLibrary: @unchecked Sendable {
    /// The file the dynamic loader opened ("/lib/x86_64-linux-gnu/libgps.so.30").
    public let path: String
    public let version: LibGPSVersion
    /// The functions called, each with the signature every supported version gives it.
    let open: hw_gps_open_fn
    let close: hw_gps_close_fn
    let stream: hw_gps_stream_fn
    let read: hw_gps_read_fn
    let errstr: hw_gps_errstr_fn

    /// "libgps.so.30 (gpsd 3.25, API 14), /lib/x86_64-linux-gnu/libgps.so.30", for doctor.
    public var description: String { "\(version.description), \(path)" }

    /// libgps's own text for one of its error codes (`gps_open` failures).
    public func errorText(_ code: Int32) -> String {
        guard let text = errstr(code) else { return "libgps error \(code)" }
        return String(cString: text)
    }
}

/// Finding the libgps of this machine: the supported sonames newest first, then libgps-dev's
/// `libgps.so`; a library is used only when the soname written in its file is a supported
/// version's (`LibGPSVersion.supported`). When none is usable, what was found says why:
/// nothing at all, or a file of another version (named, so the user knows which).
public enum LibGPS {
    /// The outcome of looking for libgps.
    public enum Outcome: Sendable {
        case usable(LibGPSLibrary)
        /// None, or none usable: why (the first problem met, else `missing`).
        case unusable(LibGPSProblem)
    }

    /// The names looked for: the supported sonames, newest first, then libgps-dev's `libgps.so`
    /// (whatever version it points at, used only if that is a supported one).
    static let candidates = LibGPSVersion.supported.map(\.soname) + ["libgps.so"]

    /// This process's libgps, looked for once, on first use.
    public static let current: Outcome = find(candidates)

    /// The size of the handle given to libgps (see CGPS/shim.h).
    public static let handleSize = Int(HW_GPS_HANDLE_SIZE)

    /// Libraries of other versions, looked for only when no candidate loads, so that a libgps
    /// of an unsupported version is named rather than called missing.
    static let otherSonames = (20...40).map { "libgps.so.\($0)" }.filter { name in
        !LibGPSVersion.supported.contains { $0.soname == name }
    }

    /// The first of `candidates` (names the loader searches for, or paths) that is usable; else
    /// the first problem one of them had; else, when none loads at all, whether one of
    /// `others` exists (an unsupported version, named), else `missing`. A usable library stays
    /// loaded; every other is closed again.
    public static func find(_ candidates: [String], others: [String]? = nil) -> Outcome {
        var problem: LibGPSProblem?
        for name in candidates {
            guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else { continue }
            switch identify(handle, name: name) {
            case .usable(let library):
                return .usable(library)
            case .unusable(let found):
                problem = problem ?? found
                dlclose(handle)
            }
        }
        if let problem { return .unusable(problem) }
        for name in others ?? otherSonames {
            guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else { continue }
            let path = path(of: handle) ?? name
            dlclose(handle)
            return .unusable(.unknownVersion(file: path, soname: soname(ofFile: path)))
        }
        return .unusable(.missing)
    }

    /// What the library behind `handle` is, and whether it can be used.
    static func identify(_ handle: UnsafeMutableRawPointer, name: String) -> Outcome {
        let path = path(of: handle) ?? name
        guard let soname = soname(ofFile: path),
              let version = LibGPSVersion.supported.first(where: { $0.soname == soname }) else {
            return .unusable(.unknownVersion(file: path, soname: soname(ofFile: path)))
        }
        let functions = hw_gps_functions_of(handle)
        guard let open = functions.open, let close = functions.close, let stream = functions.stream,
              let read = functions.read, let errstr = functions.errstr else {
            let missing = [("gps_open", functions.open == nil), ("gps_close", functions.close == nil),
                           ("gps_stream", functions.stream == nil), ("gps_read", functions.read == nil),
                           ("gps_errstr", functions.errstr == nil)].first { $0.1 }?.0 ?? "gps_open"
            return .unusable(.missingFunction(file: path, soname: soname, function: missing))
        }
        return .usable(LibGPSLibrary(path: path, version: version, open: open, close: close, stream: stream,
                                     read: read, errstr: errstr))
    }

    /// The file the loader opened for `handle`.
    static func path(of handle: UnsafeMutableRawPointer) -> String? {
        guard let path = hw_dl_path(handle), path.pointee != 0 else { return nil }
        return String(cString: path)
    }

    /// The soname written in the ELF file at `path` ("libgps.so.30"), `nil` when it has none.
    public static func soname(ofFile path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard hw_elf_soname(path, &buffer, buffer.count) else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
