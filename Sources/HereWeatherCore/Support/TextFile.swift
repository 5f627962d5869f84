#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads small UTF-8 text files (config, policy) with reasons fit for an error line.
enum TextFile {
    /// Why a file that exists could not be read as text.
    struct Unreadable: Error {
        let reason: String
    }

    /// The file's text; `nil` when it does not exist; `Unreadable` when it exists but cannot
    /// be read (a directory, no permission) or is not UTF-8.
    static func read(_ path: String) throws(Unreadable) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw Unreadable(reason: FileManager.default.isReadableFile(atPath: path) ? "it is not a regular file" : "permission denied")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Unreadable(reason: "it is not UTF-8 text") }
        return text
    }
}
