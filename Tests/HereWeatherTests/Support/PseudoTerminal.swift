import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair: the test types into `master` and reads what was shown there;
/// the code under test reads and writes `slave`, for which `isatty` is true.
final class PseudoTerminal {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let master: Int32
    let slave: Int32

    init() throws {
        // Glibc's module map leaves out the Unix 98 pty calls (they need _XOPEN_SOURCE):
        // look them up in the C library instead.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
        guard let openpt = dlsym(nil, "posix_openpt"), let grant = dlsym(nil, "grantpt"),
              let unlock = dlsym(nil, "unlockpt"), let name = dlsym(nil, "ptsname_r") else {
            throw Failure(description: "no pseudo-terminal calls in the C library")
        }
        master = unsafeBitCast(openpt, to: OpenPT.self)(O_RDWR | O_NOCTTY)
        // Until `slave` is set no deinit runs if init throws: close `master` here.
        guard master >= 0, unsafeBitCast(grant, to: OpenPT.self)(master) == 0,
              unsafeBitCast(unlock, to: OpenPT.self)(master) == 0 else {
            let code = errno
            if master >= 0 { close(master) }
            throw Failure(description: "cannot open a pseudo-terminal (errno \(code))")
        }
        var buffer = [CChar](repeating: 0, count: 128)
        guard unsafeBitCast(name, to: PTSName.self)(master, &buffer, buffer.count) == 0 else {
            close(master)
            throw Failure(description: "ptsname_r failed")
        }
        let path = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open \(path)") }
    }

    deinit {
        if slave >= 0 { close(slave) }
        close(master)
    }

    /// Types `text` at the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything shown on the terminal so far: writes a marker through the slave, then reads
    /// the master up to it (the poll timeout only keeps a broken test from hanging).
    func screen() throws -> String {
        let marker = "<<end-of-screen-\(UUID().uuidString)>>"
        let bytes = Array((marker + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(slave, $0.baseAddress, $0.count) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: output, as: UTF8.self).contains(marker) {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 30_000) == 1 else { throw Failure(description: "nothing more on the terminal") }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { throw Failure(description: "terminal closed") }
            output += buffer[0..<count]
        }
        let text = String(decoding: output, as: UTF8.self)
        return String(text[..<text.range(of: marker)!.lowerBound])
    }
}
