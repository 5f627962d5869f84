import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// The Wi-Fi answer memory reads only what it wrote: never blocks on a FIFO, never reads a
/// device or a huge file, and takes no answer from the future. It stores no MAC address:
/// keyed hashes, with the key in a file of its own.
@Suite struct WiFiNeighbourhoodMemoryTests {
    let folder: URL
    let path: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wifi-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("wifi-neighbourhood.json").path
    }

    static let home: Set = ["00:11:22:33:44:01", "00:11:22:33:44:02", "00:11:22:33:44:03"]

    func answer(at date: Date = Date()) -> WiFiNeighbourhoodMemory.Answer {
        .init(coordinate: Coordinate(latitude: 52.52, longitude: 13.41), accuracy: 40, timestamp: date,
              macAddresses: Self.home, serviceURL: "https://geolocate.example.org/v1/geolocate")
    }

    @Test func remembersAndAnswersForTheSameNeighbourhoodAtTheSameService() {
        let memory = WiFiNeighbourhoodMemory(path: path)
        memory.save(answer())
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date())?.accuracy == 40)
        #expect(memory.answer(for: Self.home, serviceURL: "https://other.example.org", now: Date()) == nil)
        #expect(memory.answer(for: ["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"], serviceURL: answer().serviceURL, now: Date()) == nil)
    }

    /// `mac` in the spellings a reader might search for: as given, upper case, with dashes,
    /// with no separators.
    static func spellings(_ mac: String) -> [String] {
        let lower = mac.lowercased()
        let bare = lower.replacingOccurrences(of: ":", with: "")
        return [lower, lower.uppercased(), lower.replacingOccurrences(of: ":", with: "-"), bare, bare.uppercased()]
    }

    @Test func noMACAddressIsStoredInAnySpellingAndTheKeyIsPrivate() throws {
        let memory = WiFiNeighbourhoodMemory(path: path)
        #expect(memory.save(answer())?.count == Self.home.count)
        let stored = try String(contentsOfFile: path, encoding: .utf8)
        let key = try String(contentsOfFile: memory.keyPath, encoding: .utf8)
        for mac in Self.home {
            for spelling in Self.spellings(mac) {
                #expect(!stored.contains(spelling) && !key.contains(spelling), "\(spelling) stored in clear")
            }
        }
        #expect(stored.contains("\"version\":2"))
        for file in [path, memory.keyPath] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
        // Still matches: the same access points, in another spelling too.
        #expect(memory.answer(for: Set(Self.home.map { $0.uppercased() }), serviceURL: answer().serviceURL, now: Date())?.accuracy == 40)
    }

    @Test func withAnotherKeyTheHashesMatchNothing() throws {
        let memory = WiFiNeighbourhoodMemory(path: path)
        memory.save(answer())
        try FileManager.default.removeItem(atPath: memory.keyPath)
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date()) == nil, "no key: no memory")
        try (String(repeating: "ab", count: 32) + "\n").write(toFile: memory.keyPath, atomically: true, encoding: .utf8)
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date()) == nil, "another key: no match")
    }

    @Test func anOldFileWithAddressesInClearIsReadOnceAndRewritten() throws {
        let macs = Self.home.sorted().map { "\"\($0)\"" }.joined(separator: ",")
        let old = #"{"version":1,"service":"https://geolocate.example.org/v1/geolocate","access_points":["#
            + macs + #"],"latitude":52.52,"longitude":13.41,"accuracy_m":40,"timestamp":"#
            + "\(Date().timeIntervalSince1970 - 10)}"
        try old.write(toFile: path, atomically: true, encoding: .utf8)
        let memory = WiFiNeighbourhoodMemory(path: path)
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date())?.accuracy == 40, "still remembered")
        let rewritten = try String(contentsOfFile: path, encoding: .utf8)
        #expect(rewritten.contains("\"version\":2"))
        for mac in Self.home { #expect(!rewritten.contains(mac), "\(mac) left in clear") }
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date())?.macAddresses == Self.home)
    }

    @Test func aFIFOOrAFolderAtTheKeyPathNeitherBlocksNorLeaksAnAddress() throws {
        let memory = WiFiNeighbourhoodMemory(path: path)
        #expect(mkfifo(memory.keyPath, 0o600) == 0)
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date()) == nil, "a FIFO is no key")
        #expect(memory.save(answer()) != nil, "a new key replaces the FIFO")
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date())?.accuracy == 40)
        try FileManager.default.removeItem(atPath: memory.keyPath)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: memory.keyPath, withIntermediateDirectories: false)
        #expect(memory.save(answer()) == nil, "no key can be made: nothing is remembered")
        #expect(!FileManager.default.fileExists(atPath: path), "and no file holds the addresses")
    }

    @Test func anAnswerFromTheFutureIsNotTaken() {
        let memory = WiFiNeighbourhoodMemory(path: path)
        memory.save(answer(at: Date().addingTimeInterval(3600)))
        #expect(memory.answer(for: Self.home, serviceURL: answer().serviceURL, now: Date()) == nil)
    }

    @Test func aFIFOInItsPlaceIsNoMemoryAndDoesNotBlock() async throws {
        #expect(mkfifo(path, 0o600) == 0)
        let memory = WiFiNeighbourhoodMemory(path: path)
        let read = Task.detached { memory.answer(for: Self.home, serviceURL: "x", now: Date()) }
        let outcome = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { _ = await read.value; return true }
            group.addTask { try await Task.sleep(for: .seconds(20)); return false }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(outcome, "reading a FIFO must not wait for a writer")
        if !outcome {   // unblock the reader so the test process can end
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
    }

    @Test func aDeviceOrAHugeFileIsNoMemory() throws {
        #expect(symlink("/dev/zero", path) == 0)
        #expect(WiFiNeighbourhoodMemory(path: path).load() == nil)
        unlink(path)
        try Data(repeating: UInt8(ascii: " "), count: WiFiNeighbourhoodMemory.limit + 1).write(to: URL(fileURLWithPath: path))
        #expect(WiFiNeighbourhoodMemory(path: path).load() == nil)
        try FileManager.default.removeItem(at: folder)
    }
}
