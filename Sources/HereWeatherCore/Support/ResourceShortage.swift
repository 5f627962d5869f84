#if canImport(Glibc)
import Glibc
#endif

/// The system refused something a run needs (a thread, a descriptor, memory): words of their
/// own, short, with no advice to change any file (issue 25 item 6: "Too many open files"
/// used to end in "Replace it ... config init --force", which erases the config's keys).
public enum ResourceShortage {
    /// What to do about any of them.
    public static let advice = "Close some programs or raise the limit (ulimit), then try again."

    /// Whether `code` means a limit was reached rather than that something is wrong with a
    /// file: EMFILE, ENFILE, ENOMEM, EAGAIN.
    public static func isShortage(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOMEM || code == EAGAIN
    }

    /// Whether `reason` is one of `reason(_:)`'s words for a shortage (`TextFile` gives them).
    public static func isShortageReason(_ reason: String) -> Bool {
        [EMFILE, ENFILE, ENOMEM, EAGAIN].contains { reason == self.reason($0) }
    }

    /// "too many open files (the limit of descriptors, ulimit -n)", by `code`.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case EMFILE: return "too many open files (the process's descriptor limit, ulimit -n)"
        case ENFILE: return "too many open files on the system"
        case ENOMEM: return "out of memory"
        case EAGAIN: return "a resource limit was reached (processes and threads, ulimit -u, or memory)"
        default: return String(cString: strerror(code))
        }
    }

    /// "cannot start a thread: a resource limit was reached (...)": for a thread that
    /// `pthread_create` refused with `code`.
    public static func thread(_ code: Int32) -> String {
        "cannot start a thread: " + reason(code)
    }
}
