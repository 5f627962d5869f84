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

    /// The reasons `read` gives, for callers that advise on them.
    static let permissionDenied = "permission denied"
    static let isDirectory = "it is a folder, not a file"
    static let notRegular = "it is not a regular file"
    static let notUTF8 = "it is not UTF-8 text"

    /// The file's text; `nil` when it does not exist; `Unreadable` when it exists but cannot
    /// be read (a directory, no permission) or is not UTF-8.
    static func read(_ path: String) throws(Unreadable) -> String? {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        if isFolder { throw Unreadable(reason: isDirectory) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
            throw Unreadable(reason: FileManager.default.isReadableFile(atPath: path) ? notRegular : permissionDenied)
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Unreadable(reason: notUTF8) }
        return text
    }
}
