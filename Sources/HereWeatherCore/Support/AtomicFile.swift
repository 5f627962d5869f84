#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see the old file or the new one, never a part.
public enum AtomicFile {
    /// How temporary files start; one left behind by a killed process can be recognised by it.
    public static let temporaryPrefix = ".here-weather.tmp."

    /// Why a write failed.
    public struct WriteError: Error, Sendable {
        public let path: String
        /// The file exists and `overwrite` was false.
        public let exists: Bool
        public let reason: String
        /// The system's error code (`errno`), for advice (`FileAdvice`).
        public var code: Int32 = 0
    }

    /// Writes `contents` to `path` through a temporary file in the same folder, creating
    /// missing folders. Without `overwrite`, an existing file is left alone and `exists` is
    /// reported; the check and the write are one step (`link`), so no race loses a file.
    public static func write(_ contents: String, to path: String, overwrite: Bool, mode: mode_t = 0o600) throws {
        try write(bytes: Array(contents.utf8), to: path, overwrite: overwrite, mode: mode)
    }

    /// Writes `bytes` as `write(_:to:overwrite:mode:)` writes text.
    ///
    /// Symbolic links are not followed where the file is made: the temporary file is created
    /// new (`mkstemp`, `O_EXCL`) and `rename`/`link` replace or refuse a link at `path`
    /// rather than write through it. Paths are opened byte for byte (`SystemPath`).
    public static func write(bytes: [UInt8], to path: String, overwrite: Bool, mode: mode_t = 0o600) throws {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { try makeDirectories(directory) }
        let temporary = (directory.isEmpty ? "." : directory) + "/" + temporaryPrefix + "XXXXXX"
        var template = SystemPath.bytes(of: temporary).map { CChar(bitPattern: $0) } + [0]
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure(path, errno) }
        let temporaryPath = SystemPath.decode(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        defer { SystemPath.withCString(temporaryPath) { _ = unlink($0) } }
        if let code = fillAndClose(descriptor, with: bytes, mode: mode) { throw failure(path, code) }
        let result = SystemPath.withCString(temporaryPath) { from in
            SystemPath.withCString(path) { to in overwrite ? rename(from, to) : link(from, to) }
        }
        guard result == 0 else {
            let code = errno
            throw WriteError(path: path, exists: !overwrite && code == EEXIST, reason: String(cString: strerror(code)), code: code)
        }
    }

    /// Writes `bytes` into `descriptor`, sets its mode, syncs it to disk and closes it: closed
    /// exactly once, whichever step fails (a close after a failed step, never a second one: the
    /// number may belong to another thread's file by then). The first failure's `errno`, if any.
    static func fillAndClose(_ descriptor: Int32, with bytes: [UInt8], mode: mode_t) -> Int32? {
        var failure: Int32?
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += result
        }
        if failure == nil {
            fchmod(descriptor, mode)
            if fsync(descriptor) != 0 { failure = errno }
        }
        // Linux frees the number even when close reports an error: never retried.
        if close(descriptor) != 0, failure == nil { failure = errno }
        return failure
    }

    /// Creates `directory` and its missing parents (mode 0700).
    static func makeDirectories(_ directory: String) throws(WriteError) {
        var current = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            current += "/" + component
            let made = SystemPath.withCString(current) { mkdir($0, 0o700) }
            if made != 0 && errno != EEXIST { throw failure(directory, errno) }
        }
    }

    /// Removes temporary files in `directory` that a run killed mid-write left behind: those
    /// older than `age` seconds (younger ones may be another run's write in progress).
    public static func removeAbandoned(in directory: String, olderThan age: Double) {
        guard let folder = SystemPath.withCString(directory, { opendir($0) }) else { return }
        defer { closedir(folder) }
        let now = FileTime.now
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            guard name.starts(with: temporaryPrefix.utf8) else { continue }
            var info = stat()
            let path = directory + "/" + SystemPath.decode(name)
            guard SystemPath.withCString(path, { lstat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  Double(now - Int(info.st_mtim.tv_sec)) > age else { continue }
            SystemPath.withCString(path) { _ = unlink($0) }
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> WriteError {
        WriteError(path: path, exists: false, reason: String(cString: strerror(code)), code: code)
    }
}
