/// The one permission prompt of a run: every source still needing an answer, what each one
/// sends and to whom, and one answer for all or one per source.
///
///     here-weather would like to use your location from:
///       gpsd (GPS receiver): nothing leaves this machine
///       IP lookup: sends your IP address to ipinfo.io, ipwho.is
///     Allow? y = yes (the default), n = no, o = once (this run only),
///     or one y/n per source in the order above (e.g. yn) [Y/n/o]:
///
/// Lines fit 80 columns.
public struct PermissionQuestion: Sendable, Equatable {
    /// The sources asked about, in priority order.
    public let sources: [LocationSource]
    /// What each source sends and to whom, in the same order.
    public let disclosures: [String]

    /// The question for `sources`, with what each sends under `location`'s settings.
    public init(_ sources: [LocationSource], location: Configuration.LocationSettings) {
        self.sources = sources
        self.disclosures = sources.map { Self.disclosure($0, location: location) }
    }

    /// The widest line the prompt writes.
    public static let width = 80

    /// The whole prompt, ending with a space for the answer.
    public var text: String {
        var lines = ["here-weather would like to use your location from:"]
        for (source, disclosure) in zip(sources, disclosures) {
            lines += Self.wrap("  \(source.permissionName): \(disclosure)", indent: "    ")
        }
        if sources.count == 1 {
            lines.append("Allow? y = yes (the default), n = no, o = once (this run only) [Y/n/o]: ")
        } else {
            lines.append("Allow? y = yes (the default), n = no, o = once (this run only),")
            lines.append("or one y/n per source in the order above (e.g. \(String(repeating: "y", count: sources.count - 1))n) [Y/n/o]: ")
        }
        return lines.joined(separator: "\n")
    }

    /// Said after an answer that is not one of the choices.
    public var reminder: String {
        sources.count == 1
            ? "Please answer y (yes, remembered), n (no, remembered) or o (once: this run only)."
            : "Please answer y, n or o for all, or \(sources.count) letters y/n, one per source."
    }

    /// The prompt after an answer that is not one of the choices: the reminder and the
    /// choices, not the whole question again.
    public var askAgain: String {
        reminder + (sources.count == 1 ? " [Y/n/o]: " : "\n[Y/n/o]: ")
    }

    /// How many times the question is asked before giving up (and refusing for this run).
    public static let attempts = 3

    /// What `source` sends, and to whom.
    public static func disclosure(_ source: LocationSource, location: Configuration.LocationSettings) -> String {
        switch source {
        case .gpsd:
            return "nothing leaves this machine"
        case .geoclue:
            return "asks the desktop's location service, which may use Wi-Fi, cell or IP services"
        case .wifi:
            return "sends nearby access points' MAC addresses and signal strengths, never their names, to \(location.wifi.host)"
        case .ip:
            var hosts: [String] = []
            for service in location.ip.services {
                let host = ServiceURL(location.ip.settings(for: service).baseURL).host
                if !hosts.contains(host) { hosts.append(host) }
            }
            return "sends your IP address to " + (hosts.isEmpty ? "a web service" : hosts.joined(separator: ", "))
        case .nmea:
            return "reads \(location.nmea.path ?? "the NMEA log"); nothing leaves this machine"
        case .fixed:
            return "the place you wrote in the config file; nothing leaves this machine"
        }
    }

    /// `line` broken at spaces into lines of at most `width` characters, the later ones
    /// starting with `indent`.
    static func wrap(_ line: String, indent: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var started = false
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = started ? current + " " + word : String(word)
            started = true
            if candidate.count > width - 1, !current.allSatisfy({ $0 == " " }) {
                lines.append(current)
                current = indent + word
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }
}

/// An answer to a `PermissionQuestion`.
public struct PromptAnswer: Sendable, Equatable {
    /// Whether each source asked about is allowed, in the question's order.
    public var allowed: [Bool]
    /// Whether the answer is remembered (yes, no, or one per source) or holds for this run
    /// only (once).
    public var remembered: Bool

    public init(allowed: [Bool], remembered: Bool) {
        self.allowed = allowed
        self.remembered = remembered
    }

    /// Reads an answer about `count` sources, in any case, blanks around it ignored: Enter
    /// (the default) or "y"/"yes" allows all, "n"/"no" refuses all, "o"/"once" allows all for
    /// this run, and `count` letters y/n (blanks and commas between them ignored) answer one
    /// per source. `nil` for anything else.
    public init?(_ text: String, count: Int) {
        let word = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()).lowercased()
        switch word {
        case "", "y", "yes": self.init(allowed: Array(repeating: true, count: count), remembered: true)
        case "n", "no": self.init(allowed: Array(repeating: false, count: count), remembered: true)
        case "o", "once": self.init(allowed: Array(repeating: true, count: count), remembered: false)
        default:
            let letters = word.filter { $0 != " " && $0 != "," }
            guard count > 1, letters.count == count, letters.allSatisfy({ $0 == "y" || $0 == "n" }) else { return nil }
            self.init(allowed: letters.map { $0 == "y" }, remembered: true)
        }
    }
}
