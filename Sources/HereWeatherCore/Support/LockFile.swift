#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lock files: `flock(2)` on a file beside the one it guards. The kernel releases the lock
/// when its holder exits, however it exits, so a killed run never leaves a file locked.
///
/// A lock file is created without following a symbolic link at its name (`O_NOFOLLOW`): a
/// link planted there fails the lock instead of making the program create or truncate a file
/// wherever the link points.
public enum LockFile {
    /// Opens the lock file at `path`, creating it (mode 0600, missing folders 0700); the
    /// descriptor is the caller's to `flock` and `close`.
    public static func open(_ path: String) throws(AtomicFile.WriteError) -> Int32 {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty { try AtomicFile.makeDirectories(directory) }
        let descriptor = SystemPath.withCString(path) {
            Glibc.open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o600)
        }
        guard descriptor >= 0 else {
            let code = errno
            let reason = code == ELOOP ? "it is a symbolic link" : String(cString: strerror(code))
            throw AtomicFile.WriteError(path: path, exists: false, reason: reason, code: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw AtomicFile.WriteError(path: path, exists: false, reason: "it is not a regular file", code: EINVAL)
        }
        return descriptor
    }

    /// Whether `descriptor` is the file now at `path` (not one removed or replaced since it
    /// was opened): the same device and inode, the path not followed if it is a link.
    public static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var opened = stat(), current = stat()
        guard fstat(descriptor, &opened) == 0,
              SystemPath.withCString(path, { lstat($0, &current) }) == 0 else { return false }
        return opened.st_dev == current.st_dev && opened.st_ino == current.st_ino
    }

    /// Runs `body` while holding the lock at `path`, waiting up to `patience` seconds for
    /// another run that holds it (such runs hold it only while they read and rewrite a file).
    public static func withLock<Result>(_ path: String, patience: Double = 10,
                                        _ body: () throws -> Result) throws -> Result {
        let descriptor = try open(path)
        defer { close(descriptor) }
        var waited = 0.0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK, waited < patience else {
                let reason = code == EWOULDBLOCK
                    ? "another here-weather run held its lock for over \(Int(patience)) s" : String(cString: strerror(code))
                throw AtomicFile.WriteError(path: path, exists: false, reason: reason, code: code)
            }
            usleep(20_000)
            waited += 0.02
        }
        return try body()
    }
}
