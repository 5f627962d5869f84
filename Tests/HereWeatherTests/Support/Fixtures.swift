import Foundation

/// Files under the repository's `Fixtures/` folder.
enum Fixtures {
    /// The repository root, found from this source file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL {
        root.appendingPathComponent("Fixtures").appendingPathComponent(path)
    }

    /// The bytes of `Fixtures/<path>`; a fixture that cannot be read stops the test run loudly,
    /// saying why (it was once "missing" when the process was out of descriptors).
    static func data(_ path: String) -> Data {
        let file = url(path).path
        if let data = FileManager.default.contents(atPath: file) { return data }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        let reason = descriptor < 0 ? String(cString: strerror(errno)) : "it cannot be read"
        if descriptor >= 0 { close(descriptor) }
        fatalError("cannot read fixture Fixtures/\(path): \(reason)")
    }
}
