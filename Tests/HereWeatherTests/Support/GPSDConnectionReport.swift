import Foundation
import Glibc

extension GPSDHarness {
    /// Every TCP connection to gpsd's port on 127.0.0.1 (IPv4, from /proc/net/tcp), both ends,
    /// with its queues and which descriptor of this process holds it. For the diagnosis of a
    /// client gpsd "accepted but never greeted", it tells the three causes apart:
    /// * gpsd's listening socket has connections waiting (`waiting for accept()` above 0) and
    ///   their server ends have no descriptor: gpsd never accepted them (gpsd is stuck);
    /// * the client end holds bytes in its receive queue and a descriptor of this process
    ///   holds it: gpsd greeted it and nobody read it (the client reads another descriptor);
    /// * the client end is held by no descriptor of this process: it was closed under its
    ///   owner, or a child process inherited it (a descriptor closed twice, or not CLOEXEC).
    var connectionReport: String { Self.connectionReport(port: port) }

    static func connectionReport(port: UInt16) -> String {
        // Read to the end: String(contentsOfFile:) stops after the first page of a /proc file.
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp"), let data = try? handle.readToEnd() else {
            return "(no /proc/net/tcp)"
        }
        let table = String(decoding: data, as: UTF8.self)
        let ours = socketDescriptors()
        var lines: [String] = []
        for row in table.split(separator: "\n").dropFirst() {
            let fields = row.split(separator: " ")
            guard fields.count > 9, let local = Endpoint(fields[1]), let remote = Endpoint(fields[2]),
                  local.port == port || remote.port == port else { continue }
            let queues = fields[4].split(separator: ":").map { Int($0, radix: 16) ?? -1 }
            guard queues.count == 2 else { continue }
            let inode = String(fields[9])
            if fields[3] == "0A" {
                // For a listening socket the receive queue is its accept queue.
                lines.append("listening on \(local): \(queues[1]) waiting for accept()")
                continue
            }
            let holder = inode == "0" ? "no descriptor (not accepted yet, or closed)"
                : ours[inode].map { "fd \($0) of this process" } ?? "another process"
            let state = states[String(fields[3])] ?? "state \(fields[3])"
            lines.append("\(local) -> \(remote) \(state), send queue \(queues[0]), receive queue \(queues[1]), held by \(holder)")
        }
        return lines.isEmpty ? "no TCP connection on port \(port)" : lines.joined(separator: "\n")
    }

    private static let states = ["01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1",
                                 "05": "FIN_WAIT2", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT",
                                 "09": "LAST_ACK", "0B": "CLOSING"]

    /// Socket inode -> descriptor number, for this process's open sockets.
    private static func socketDescriptors() -> [String: Int32] {
        var result: [String: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:[") else { continue }
            result[String(target.dropFirst(8).dropLast())] = fd
        }
        return result
    }

    /// `0100007F:50DA` (address in host byte order as hex, port as hex) from /proc/net/tcp.
    private struct Endpoint: CustomStringConvertible {
        let address: UInt32
        let port: UInt16

        init?(_ text: Substring) {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let address = UInt32(parts[0], radix: 16), let port = UInt16(parts[1], radix: 16) else {
                return nil
            }
            self.address = address
            self.port = port
        }

        var description: String {
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            return bytes.map(String.init).joined(separator: ".") + ":\(port)"
        }
    }
}
