#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the program's own files (config, policy, decisions, cache entries, the last
/// location, recordings), each bounded by a size its kind never reaches, with reasons fit for
/// an error line.
///
/// Every file read goes through here: it opens without blocking (a FIFO planted where a file
/// belongs does not hang the run), reads only regular files, looks at the size before reading
/// and never reads more than the limit, and opens the path byte for byte (`SystemPath`).
enum TextFile {
    /// Why a file that exists could not be read.
    struct Unreadable: Error {
        let reason: String
    }

    /// The reasons `read` gives, for callers that advise on them.
    static let permissionDenied = "permission denied"
    static let isDirectory = "it is a folder, not a file"
    static let notRegular = "it is not a regular file"
    static let notUTF8 = "it is not UTF-8 text"
    /// The start of the reason for a file over its limit.
    static let tooLargePrefix = "it is larger than"

    /// Limits for the small text files a person writes or the program keeps (config, policy,
    /// decisions, the last location): far above any real one.
    static let smallFileLimit = 1 << 20

    /// The file's text; `nil` when it does not exist; `Unreadable` when it exists but cannot
    /// be read (a directory, no permission, over `limit` bytes) or is not UTF-8.
    static func read(_ path: String, limit: Int = smallFileLimit) throws(Unreadable) -> String? {
        guard let bytes = try bytes(path, limit: limit) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Unreadable(reason: notUTF8) }
        return text
    }

    /// The file's bytes, at most `limit` of them; `nil` when it does not exist; `Unreadable`
    /// when it exists but is not a regular file, cannot be read or is larger than `limit`.
    static func bytes(_ path: String, limit: Int) throws(Unreadable) -> [UInt8]? {
        let descriptor = SystemPath.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: return nil
            case EACCES, EPERM: throw Unreadable(reason: permissionDenied)
            default: throw Unreadable(reason: ResourceShortage.reason(code))
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Unreadable(reason: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Unreadable(reason: isDirectory)
        default: throw Unreadable(reason: notRegular)
        }
        guard Int(info.st_size) <= limit else { throw tooLarge(limit) }
        // The file may grow while it is read: one byte more than the limit tells.
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), limit) + 1)
        var count = 0
        while count < bytes.count {
            let result = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                throw Unreadable(reason: String(cString: strerror(errno)))
            }
            if result == 0 { break }
            count += result
            if count == bytes.count, count <= limit { bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - count)) }
        }
        guard count <= limit else { throw tooLarge(limit) }
        return Array(bytes[..<count])
    }

    private static func tooLarge(_ limit: Int) -> Unreadable {
        Unreadable(reason: "\(tooLargePrefix) \(sizeText(limit)), far more than such a file holds")
    }

    /// `1 MB`, `64 KB`: a limit as people read it.
    static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes >> 10) KB"
    }
}
