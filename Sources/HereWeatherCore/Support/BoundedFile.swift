#if canImport(Glibc)
import Glibc
#endif

/// Reads a small state file without trusting it: a regular file only (a FIFO or a device
/// in its place would block the read forever, or never end), and at most `limit` bytes.
public enum BoundedFile {
    /// The bytes of the regular file at `path`, or `nil` when it is missing, not a regular
    /// file, unreadable or larger than `limit`.
    public static func read(_ path: String, limit: Int) -> [UInt8]? {
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let result = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { return nil }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else { return nil }   // it grew while being read
        return Array(bytes.prefix(count))
    }
}
