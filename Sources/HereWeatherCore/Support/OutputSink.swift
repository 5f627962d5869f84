#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a stream of the command's text goes: stdout or stderr of the process, or a test's
/// capture.
public protocol OutputSink: Sendable {
    /// Writes all of `text`. Returns why it could not, as the system words it ("No space
    /// left on device"), or `nil` when every byte was written.
    func write(_ text: String) -> String?
}

/// A file descriptor of the process (1 or 2): writes every byte, retrying interrupted writes.
/// The one write loop of the command's streams: the report on stdout, and everything the
/// `Console` writes on stderr.
public struct FileDescriptorOutput: OutputSink {
    public let descriptor: Int32

    public init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return String(cString: strerror(result < 0 ? errno : EIO)) }
            written += result
        }
        return nil
    }
}

/// A stdout the program was started without (`here-weather >&-`): every write fails, so a
/// report is never reported as printed.
public struct ClosedOutput: OutputSink {
    public init() {}

    public func write(_ text: String) -> String? {
        "standard output is closed"
    }
}

/// `write(2)`, named apart from `OutputSink.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
