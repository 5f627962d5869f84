#if canImport(Glibc)
import Glibc
#endif

/// Which certificate authorities https requests trust: the system's, or those the
/// environment names the way curl reads it.
///
/// curl's precedence: `CURL_CA_BUNDLE` (a PEM file) alone; otherwise `SSL_CERT_DIR` (a
/// directory prepared with `openssl rehash`) and `SSL_CERT_FILE` (a PEM file), either or both.
/// An empty variable counts as unset. Users behind a TLS-intercepting proxy set one of them
/// to trust the proxy's CA. Read once per run by the executable and passed down as a value.
///
/// The system's CAs, when the system keeps them in a hashed directory (Debian's
/// /etc/ssl/certs), are trusted as that directory: OpenSSL then reads only the certificates a
/// server's chain needs instead of parsing the whole bundle (issue 22: 264M instructions down
/// to 40M; docs/benchmark.md). `SSL_CERT_DIR` alone adds its directory in front of it.
public struct CertificateTrust: Sendable, Equatable {
    /// A PEM file of CAs to trust instead of the system bundle; `nil`: the system bundle,
    /// unless `systemBundle` is false.
    public var bundle: String?
    /// Hashed directories of CAs to trust as well, separated by ":" (as OpenSSL reads
    /// them); `nil`: none.
    public var directory: String?
    /// Whether libcurl's built-in bundle is loaded when `bundle` is `nil`: not when
    /// `directory` holds the system's CAs.
    public var systemBundle: Bool

    /// The system's CAs (libcurl's built-in bundle), or those named.
    public init(bundle: String? = nil, directory: String? = nil, systemBundle: Bool = true) {
        self.bundle = bundle
        self.directory = directory
        self.systemBundle = systemBundle
    }

    /// The system's hashed CA directory, where Debian's libcurl looks by default.
    public static let systemDirectory = "/etc/ssl/certs"

    /// Larger CA files are refused: Mozilla's bundle is about 220 KB, and OpenSSL parses a
    /// megabyte of certificates in about a second, on the thread that enforces every deadline.
    public static let maximumFileBytes = 4 << 20

    /// The variable each location came from, for error messages.
    struct Named: Equatable {
        var variable: String
        var path: String
        var isDirectory: Bool
    }

    /// The locations `environment` names, in curl's precedence.
    static func named(in environment: [String: String]) -> [Named] {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let bundle = value("CURL_CA_BUNDLE") { return [Named(variable: "CURL_CA_BUNDLE", path: bundle, isDirectory: false)] }
        var named: [Named] = []
        if let directory = value("SSL_CERT_DIR") { named.append(Named(variable: "SSL_CERT_DIR", path: directory, isDirectory: true)) }
        if let file = value("SSL_CERT_FILE") { named.append(Named(variable: "SSL_CERT_FILE", path: file, isDirectory: false)) }
        return named
    }

    /// The trust `environment` asks for. Throws when a variable names a file or directory
    /// that cannot be read: checked here, before any work, so that the message can name the
    /// variable (libcurl would only say that a secure connection failed), and so that a FIFO
    /// or a huge file never reaches the transfer thread. `hashedSystemDirectory`: the
    /// system's CA directory when it is hashed (`hashedDirectory(systemDirectory)`).
    public static func fromEnvironment(_ environment: [String: String],
                                       hashedSystemDirectory: String? = hashedDirectory(systemDirectory))
        throws(CertificateTrustError) -> CertificateTrust {
        let named = named(in: environment)
        for location in named {
            if let problem = unreadable(location) {
                throw CertificateTrustError(variable: location.variable, path: location.path, problem: problem)
            }
        }
        let file = named.first { !$0.isDirectory }?.path
        let directory = named.first { $0.isDirectory }?.path
        guard file == nil, let system = hashedSystemDirectory else {
            return CertificateTrust(bundle: file, directory: directory)
        }
        // No file named: the system's CAs as a directory, after the one named, if any.
        let directories = directory.map { $0 == system ? system : $0 + ":" + system } ?? system
        return CertificateTrust(directory: directories, systemBundle: false)
    }

    /// `path` when it is a directory holding at least one certificate under its hash name
    /// (`openssl rehash`: "002c0b4f.0"); `nil` otherwise.
    public static func hashedDirectory(_ path: String) -> String? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if isHashName(name) { return path }
        }
        return nil
    }

    /// Eight hexadecimal digits, a dot and a decimal number.
    static func isHashName(_ name: [UInt8]) -> Bool {
        guard name.count >= 10, name[8] == UInt8(ascii: ".") else { return false }
        let hex = name[..<8].allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return hex && name[9...].allSatisfy { (48...57).contains($0) }
    }

    /// Why `location` cannot be used, or `nil` when it can. A file is opened without
    /// blocking (a FIFO would wait for a writer) and checked with `fstat`: a regular file of
    /// at most `maximumFileBytes`.
    static func unreadable(_ location: Named) -> String? {
        func failure(_ code: Int32) -> String {
            code == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(code))))"
        }
        var status = stat()
        guard location.isDirectory else {
            let descriptor = open(location.path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { return failure(errno) }
            defer { close(descriptor) }
            guard fstat(descriptor, &status) == 0 else { return failure(errno) }
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return "is not a file"
            default: return "is not a regular file"
            }
            guard status.st_size <= maximumFileBytes else {
                return "is larger than \(maximumFileBytes >> 20) MiB (a CA bundle is a few hundred KB)"
            }
            return nil
        }
        guard stat(location.path, &status) == 0 else { return failure(errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "is not a directory" }
        guard access(location.path, R_OK | X_OK) == 0 else { return failure(errno) }
        return nil
    }
}

/// A CA variable (`SSL_CERT_FILE`, ...) names something that cannot be read. A configuration
/// error (exit 78): the environment is wrong, trying again will not help, and a script must
/// not take it for a service that is down (69, where a cached report may stand in).
public struct CertificateTrustError: UserFacingError, Equatable {
    public let variable: String
    public let path: String
    /// "does not exist", "is not a file", "cannot be read (Permission denied)".
    public let problem: String

    public var message: String {
        let printable = ServiceText.printable(path)
        return "\(variable) names \"\(printable)\", which \(problem): point it at a readable "
            + (variable == "SSL_CERT_DIR" ? "directory of CA certificates" : "PEM file of CA certificates")
            + ", or unset it to trust the system's certificate authorities."
    }

    public var exitStatus: ExitStatus { .configuration }
}
