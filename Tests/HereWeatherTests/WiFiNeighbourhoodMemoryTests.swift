import Foundation
import Glibc
import Testing
@testable import HereWeatherCore

/// The Wi-Fi answer memory reads only what it wrote: never blocks on a FIFO, never reads a
/// device or a huge file, and takes no answer from the future.
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
              macAddresses: Self.home, service: "https://geolocate.example.org/v1/geolocate")
    }

    @Test func remembersAndAnswersForTheSameNeighbourhoodAtTheSameService() {
        let memory = WiFiNeighbourhoodMemory(path: path)
        memory.save(answer())
        #expect(memory.answer(for: Self.home, service: answer().service, now: Date())?.accuracy == 40)
        #expect(memory.answer(for: Self.home, service: "https://other.example.org", now: Date()) == nil)
        #expect(memory.answer(for: ["aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:02"], service: answer().service, now: Date()) == nil)
    }

    @Test func anAnswerFromTheFutureIsNotTaken() {
        let memory = WiFiNeighbourhoodMemory(path: path)
        memory.save(answer(at: Date().addingTimeInterval(3600)))
        #expect(memory.answer(for: Self.home, service: answer().service, now: Date()) == nil)
    }

    @Test func aFIFOInItsPlaceIsNoMemoryAndDoesNotBlock() async throws {
        #expect(mkfifo(path, 0o600) == 0)
        let memory = WiFiNeighbourhoodMemory(path: path)
        let read = Task.detached { memory.answer(for: Self.home, service: "x", now: Date()) }
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
