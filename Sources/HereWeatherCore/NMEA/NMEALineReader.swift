#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a file descriptor (file, pipe or serial device) or from bytes in memory,
/// in fixed-size chunks, so memory stays constant however long the input is.
///
/// Lines end in CR LF, LF or a lone CR; empty lines are dropped. A line longer than
/// `NMEAParser.maximumLineLength` is skipped without being buffered whole. Any byte value,
/// NUL included, may appear inside a line. The reader does not close the descriptor.
///
/// A descriptor is read until its end or its `NMEAReadLimit` (the request's deadline or a
/// cancellation), checked before every chunk. A pipe, FIFO or device, which can have no data
/// for ever, is waited on with `poll` in short slices instead of a blocking `read`; open it
/// with `O_NONBLOCK`.
public struct NMEALineReader: Sendable {
    /// The chunk read at a time, and the buffer's fixed size.
    public static let defaultChunkSize = 64 * 1024

    private enum Source: Sendable {
        case descriptor(Int32)
        case memory([UInt8], position: Int)
    }

    private var source: Source
    private let limit: NMEAReadLimit
    /// Whether reads may find no data yet (not a regular file): wait for it with `poll`.
    private var waitsForData = false
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    private var skippingLongLine = false
    /// The last line ended in CR at the end of the buffered bytes: an LF next belongs to it.
    private var pendingLineFeed = false

    /// Bytes taken from the source so far.
    public private(set) var bytesRead = 0
    /// Non-empty lines handed out so far.
    public private(set) var linesRead = 0
    /// Lines skipped for being longer than `NMEAParser.maximumLineLength`.
    public private(set) var overlongLinesSkipped = 0
    /// The `errno` of a failed `read`, which ends the input.
    public private(set) var readError: Int32?
    /// Why reading stopped before the end of the input, if it did.
    public private(set) var stopReason: NMEAReadLimit.Reason?

    /// Reads from `fileDescriptor`, which stays open and owned by the caller, until its end
    /// or `limit`.
    public init(fileDescriptor: Int32, limit: NMEAReadLimit = .unlimited, chunkSize: Int = defaultChunkSize) {
        source = .descriptor(fileDescriptor)
        self.limit = limit
        var info = stat()
        waitsForData = fstat(fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        buffer = [UInt8](repeating: 0, count: max(chunkSize, 2 * NMEAParser.maximumLineLength))
    }

    /// Reads from bytes in memory, `chunkSize` at a time (as a descriptor would be read).
    public init(bytes: [UInt8], chunkSize: Int = defaultChunkSize) {
        source = .memory(bytes, position: 0)
        limit = .unlimited
        buffer = [UInt8](repeating: 0, count: max(chunkSize, 2 * NMEAParser.maximumLineLength))
    }

    /// The bytes the reader holds on to: fixed at creation.
    public var bufferCapacity: Int { buffer.capacity }

    /// Calls `body` with the next line (without its ending) and returns its result, or
    /// returns `nil` at the end of the input. The bytes are valid only during the call.
    public mutating func withNextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let maximum = NMEAParser.maximumLineLength
        while true {
            if pendingLineFeed, start < end {
                if buffer[start] == lf { start += 1 }
                pendingLineFeed = false
            }
            let terminator: Int? = buffer.withUnsafeBufferPointer { bytes in
                var index = start
                while index < end {
                    let byte = bytes[index]
                    if byte == lf || byte == cr { return index }
                    index += 1
                }
                return nil
            }
            if let terminator {
                let lineStart = start
                start = terminator + 1
                if buffer[terminator] == cr {
                    if start < end {
                        if buffer[start] == lf { start += 1 }
                    } else {
                        pendingLineFeed = true
                    }
                }
                if skippingLongLine {
                    skippingLongLine = false
                    continue
                }
                let length = terminator - lineStart
                if length == 0 { continue }
                if length > maximum {
                    overlongLinesSkipped += 1
                    continue
                }
                linesRead += 1
                return try buffer.withUnsafeBufferPointer { bytes in
                    try body(UnsafeBufferPointer(rebasing: bytes[lineStart..<terminator]))
                }
            }
            // No line ending in the buffered bytes: drop an overlong line's start, keep the rest.
            if skippingLongLine || end - start > maximum {
                if !skippingLongLine { overlongLinesSkipped += 1 }
                skippingLongLine = true
                start = 0
                end = 0
            } else if start > 0 {
                let remaining = end - start
                if remaining > 0 {
                    buffer.withUnsafeMutableBufferPointer { bytes in
                        guard let base = bytes.baseAddress else { return }
                        (base).update(from: base + start, count: remaining)
                    }
                }
                start = 0
                end = remaining
            }
            if !fill() {
                // The last line may lack an ending; a read cut short leaves a partial one.
                let lineStart = start, lineEnd = end
                start = end
                guard stopReason == nil, !skippingLongLine, lineEnd > lineStart, lineEnd - lineStart <= maximum else { return nil }
                linesRead += 1
                return try buffer.withUnsafeBufferPointer { bytes in
                    try body(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
                }
            }
        }
    }

    /// Appends the next chunk after `end`; `false` at the end of the input or on an error.
    private mutating func fill() -> Bool {
        if reachedEnd { return false }
        let room = buffer.count - end
        guard room > 0 else { return true }
        let count: Int
        switch source {
        case .descriptor(let descriptor):
            count = readChunk(from: descriptor, room: room)
        case .memory(let bytes, let position):
            count = min(room, bytes.count - position)
            if count > 0 {
                let offset = end
                buffer.withUnsafeMutableBufferPointer { target in
                    bytes.withUnsafeBufferPointer { source in
                        guard let targetBase = target.baseAddress, let sourceBase = source.baseAddress else { return }
                        (targetBase + offset).update(from: sourceBase + position, count: count)
                    }
                }
            }
            source = .memory(bytes, position: position + count)
        }
        if count == 0 {
            reachedEnd = true
            return false
        }
        end += count
        bytesRead += count
        return true
    }

    /// Reads up to `room` bytes after `end`: 0 at the end of the input, on an error
    /// (`readError`) or when the limit stops it (`stopReason`).
    private mutating func readChunk(from descriptor: Int32, room: Int) -> Int {
        while true {
            if let reason = limit.reason() ?? (waitsForData ? limit.waitForData(on: descriptor) : nil) {
                stopReason = reason
                return 0
            }
            let offset = end
            let result = buffer.withUnsafeMutableBytes { bytes in
                read(descriptor, bytes.baseAddress.map { $0 + offset }, room)
            }
            if result >= 0 { return result }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: waitsForData = true
            case let error:
                readError = error
                return 0
            }
        }
    }
}
