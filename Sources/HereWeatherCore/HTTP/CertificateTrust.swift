#if canImport(Glibc)
import Glibc
#endif

/// Which certificate authorities https requests trust: the system's, or those the
/// environment names the way curl reads it.
///
/// curl's precedence: `CURL_CA_BUNDLE` (a PEM file) alone; otherwise `SSL_CERT_DIR` (a
/// directory prepared with `openssl rehash`) and `SSL_CERT_FILE` (a PEM file), either or both.
/// An empty variable counts as unset. Users behind a TLS-intercepting proxy set one of them
/// to trust the proxy's CA. Read by the executable and passed down as a value.
public struct CertificateTrust: Sendable, Equatable {
    /// A PEM file of CAs to trust instead of the system bundle; `nil`: the system bundle.
    public var bundle: String?
    /// A hashed directory of CAs to trust as well; `nil`: none (the system bundle already
    /// holds what the system directory holds, and libcurl caches the CA store only without one).
    public var directory: String?

    /// The system's CAs.
    public init(bundle: String? = nil, directory: String? = nil) {
        self.bundle = bundle
        self.directory = directory
    }

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
    /// variable (libcurl would only say that a secure connection failed).
    public static func fromEnvironment(_ environment: [String: String]) throws(CertificateTrustError) -> CertificateTrust {
        var trust = CertificateTrust()
        for location in named(in: environment) {
            guard let problem = unreadable(location) else {
                if location.isDirectory { trust.directory = location.path } else { trust.bundle = location.path }
                continue
            }
            throw CertificateTrustError(variable: location.variable, path: location.path, problem: problem)
        }
        return trust
    }

    /// Why `location` cannot be used, or `nil` when it can.
    static func unreadable(_ location: Named) -> String? {
        var status = stat()
        guard stat(location.path, &status) == 0 else {
            return errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
        }
        let isDirectory = status.st_mode & S_IFMT == S_IFDIR
        if location.isDirectory != isDirectory {
            return location.isDirectory ? "is not a directory" : "is not a file"
        }
        guard access(location.path, R_OK | (isDirectory ? X_OK : 0)) == 0 else {
            return "cannot be read (\(String(cString: strerror(errno))))"
        }
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
