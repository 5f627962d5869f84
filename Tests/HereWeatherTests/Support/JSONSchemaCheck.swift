import Foundation
import Glibc
import HereWeatherCore

/// The JSON output's schema, `docs/here-weather.schema.json`, checked with python3-jsonschema
/// through `scripts/validate-json` (the same check people run by hand:
/// `here-weather --json | scripts/validate-json`).
///
/// One checker (`validate-json --serve`) answers every test of a run: starting Python and
/// jsonschema cost about 0.3 s of CPU each time, some 15 s of a full run's CPU when each
/// check started its own.
enum JSONSchemaCheck {
    static let schema = Fixtures.root.appendingPathComponent("docs/here-weather.schema.json")
    static let validator = Fixtures.root.appendingPathComponent("scripts/validate-json")

    /// Why validate-json could not check at all (no python3-jsonschema, a schema that is not one).
    struct CheckFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// What validate-json finds wrong with `documents` (JSON texts, each on one line as the
    /// program prints them) as `$defs/<definition>`: one line per problem ("document 2: at
    /// /weather/current: 'temperature' is a required property"), none when all are valid.
    static func problems(_ documents: [String], as definition: String) async throws -> [String] {
        let request = try JSONSerialization.data(withJSONObject: ["def": definition, "documents": documents])
        let answer = try await BlockingCall.run { Result { try checker.ask(request) } }
        let object = try? JSONSerialization.jsonObject(with: answer) as? [String: Any]
        if let problems = object?["problems"] as? [String] { return problems }
        throw CheckFailed(description: object?["error"] as? String ?? "validate-json answered: \(String(decoding: answer, as: UTF8.self))")
    }

    /// The schema's `$defs`, parsed: for comparing its enums with the code's.
    static func definitions() throws -> [String: Any] {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: schema)) as? [String: Any]
        return schema?["$defs"] as? [String: Any] ?? [:]
    }

    /// The run's checker, started on first use.
    private static let checker = Checker()

    /// `validate-json --serve` under the system python3 (Debian's python3-jsonschema; a pyenv
    /// python3 lacks it), asked one request at a time. It ends with the test process (its
    /// stdin closes; `ChildGuardian` kills it too); one that dies or stops answering is
    /// replaced on the next request.
    final class Checker: @unchecked Sendable {
        private let lock = NSLock()
        private var child: ChildProcess?
        /// Our end of the checker's stdin, a socket: written with MSG_NOSIGNAL, so a checker
        /// that has died raises no SIGPIPE in the test process (a pipe would).
        private var input: Int32 = -1
        private var output: ChildPipe?
        private var pending = Data()
        /// The checker's stderr: a file already unlinked, read through this descriptor.
        private var errors: Int32 = -1

        /// Sends one request line and returns the answer line (blocking, at most `limit`).
        func ask(_ request: Data, limit: Duration = TestLimits.longestRun) throws -> Data {
            try lock.withLock {
                if child == nil { try start() }
                do {
                    try write(request + Data("\n".utf8))
                    return try readLine(until: .now + limit)
                } catch {
                    let reason = errors >= 0 ? String(decoding: (try? FileHandle(fileDescriptor: errors).readToEnd()) ?? Data(), as: UTF8.self) : ""
                    stop()
                    throw CheckFailed(description: "validate-json --serve: \(error)\(reason.isEmpty ? "" : ": " + reason)")
                }
            }
        }

        private func start() throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw CheckFailed(description: "socketpair: \(String(cString: strerror(errno)))")
            }
            let output: ChildPipe
            do { output = try ChildPipe() } catch {
                close(ends[0]); close(ends[1])
                throw error
            }
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("validate-json-\(UUID().uuidString).log")
            let logDescriptor = open(log.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            let readDescriptor = logDescriptor >= 0 ? open(log.path, O_RDONLY | O_CLOEXEC) : -1
            unlink(log.path)
            defer {
                close(ends[1])
                output.closeChildEnd()
                if logDescriptor >= 0 { close(logDescriptor) }
            }
            if errors >= 0 { close(errors) }
            errors = readDescriptor
            do {
                child = try ChildProcess(["/usr/bin/python3", validator.path, "--schema", schema.path, "--serve"],
                                         environment: ProcessInfo.processInfo.environment,
                                         stdin: .use(ends[1]), stdout: .use(output.childEnd),
                                         stderr: logDescriptor >= 0 ? .use(logDescriptor) : .null)
            } catch {
                close(ends[0])
                throw error
            }
            (input, self.output, pending) = (ends[0], output, Data())
        }

        private func stop() {
            _ = child?.terminate()
            child = nil
            if input >= 0 { close(input) }
            output?.closeOurEnd()
            (input, output) = (-1, nil)
            if errors >= 0 { close(errors) }
            errors = -1
        }

        private func write(_ data: Data) throws {
            try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                guard let base = bytes.baseAddress else { return }
                var offset = 0
                while offset < bytes.count {
                    let written = send(input, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { throw CheckFailed(description: "write: \(String(cString: strerror(errno)))") }
                    offset += written
                }
            }
        }

        private func readLine(until deadline: ContinuousClock.Instant) throws -> Data {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = pending[pending.startIndex..<end]
                    pending = Data(pending[(end + 1)...])
                    return Data(line)
                }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { throw CheckFailed(description: "no answer within the limit") }
                var poller = pollfd(fd: output?.ourEnd ?? -1, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(min(left, .seconds(1)).components.seconds * 1000 + 1)
                let ready = poll(&poller, 1, milliseconds)
                if ready < 0 && errno == EINTR { continue }
                guard ready >= 0 else { throw CheckFailed(description: "poll: \(String(cString: strerror(errno)))") }
                if ready == 0 { continue }
                let count = read(output?.ourEnd ?? -1, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw CheckFailed(description: "it ended without answering") }
                pending.append(contentsOf: buffer[0..<count])
            }
        }
    }
}
