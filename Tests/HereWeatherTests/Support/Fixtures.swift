import Foundation

/// Files under the repository's `Fixtures/` folder.
enum Fixtures {
    /// The repository root, found from this source file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL {
        root.appendingPathComponent("Fixtures").appendingPathComponent(path)
    }

    /// The bytes of `Fixtures/<path>`; a missing fixture stops the test run loudly.
    static func data(_ path: String) -> Data {
        guard let data = try? Data(contentsOf: url(path)) else {
            fatalError("missing fixture Fixtures/\(path)")
        }
        return data
    }
}
