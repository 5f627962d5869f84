#if canImport(Glibc)
import Glibc
#endif

/// What a user can do about a file that could not be written, by the system's error code:
/// the second half of an error line ("writing ... failed: Is a directory. A folder stands ...").
public enum FileAdvice {
    /// The advice for a failed write of `path`; `folder` names where the file lives, for the
    /// generic case ("the folder is writable (or set XDG_STATE_HOME)").
    public static func forWriting(_ path: String, code: Int32, folder: String) -> String {
        switch code {
        case EISDIR, ENOTDIR:
            return "A folder stands where the file belongs: move \(path) (or the folder in its way) aside and try again."
        case ELOOP:
            return "A symbolic link stands where the program makes its own file (it is never followed): remove \(path) and try again."
        case ENOSPC, EDQUOT, EFBIG:
            return "The disk, your quota or the file size limit is full: free some space and try again."
        case _ where ResourceShortage.isShortage(code):
            return ResourceShortage.advice
        case EROFS:
            return "The file system is read-only: make it writable, or use \(folder) elsewhere."
        default:
            return "Check that \(folder) is writable."
        }
    }
}
