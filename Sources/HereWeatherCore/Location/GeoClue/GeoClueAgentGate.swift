#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The GeoClue source with what it learned about a missing agent (`GeoClueAgentMemory`).
///
/// Learns: when GeoClue gave no answer for want of an agent (GetClient unanswered after at
/// least `minimumSeconds`, or refused with GeoClue's "no agent" error), the memory is written;
/// when GeoClue gives a fix, it is forgotten. With `skips` (the zero-config chain only), a
/// memory that still holds fails the request at once, GeoClue not asked
/// (`GeoClueError.rememberedNoAgent`, which says why and what to do; `log` too): GeoClue
/// without an agent would otherwise cost the whole deadline on every run. A source that fails
/// at once costs the chain nothing, and when every source fails the reason is still listed. It holds until a new boot, a new login, a day, or a new connection of the
/// user's on the system bus (`GeoClueAgentWatch`: an agent may have started).
public struct GeoClueAgentGate: LocationSourceProvider {
    public let base: any LocationSourceProvider
    public let memory: GeoClueAgentMemory
    /// The bus check for a new agent; nil when the base cannot tell (not on D-Bus).
    public let watch: (any GeoClueAgentWatch)?
    /// The boot and session now, for a date on the run's clock.
    public let situation: @Sendable (Date) -> GeoClueAgentSituation
    public let clock: any RunClock
    /// Whether a memory that holds skips GeoClue (the zero-config chain); otherwise it only learns.
    public let skips: Bool
    /// Where the `--verbose` notes go.
    public let log: @Sendable (String) -> Void

    /// A GetClient unanswered for less time than this proves nothing (GeoClue may still be
    /// starting through D-Bus activation): only a longer wait is learned from.
    public static let minimumSeconds = 3.0

    public init(base: any LocationSourceProvider, memory: GeoClueAgentMemory, watch: (any GeoClueAgentWatch)?,
                situation: @escaping @Sendable (Date) -> GeoClueAgentSituation, clock: any RunClock, skips: Bool,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.base = base
        self.memory = memory
        self.watch = watch
        self.situation = situation
        self.clock = clock
        self.skips = skips
        self.log = log
    }

    public var source: LocationSource { .geoclue }

    public func isPresent() async -> Bool {
        await base.isPresent()
    }

    /// The verdict on the memory now, the bus included; nil without a memory that can be read.
    public func verdict() async -> GeoClueAgentSituation.Verdict? {
        let now = clock.date
        guard let remembered = memory.load(now: now) else { return nil }
        let verdict = situation(now).verdict(remembered)
        guard case .skip = verdict, let then = remembered.busNames, let watch,
              let names = await watch.busNames() else { return verdict }
        let new = names.subtracting(then)
        if !new.isEmpty, let users = await watch.userConnections(among: new), !users.isEmpty {
            return .tryAgain("a new connection of your user is on the system bus (a GeoClue agent may have started)")
        }
        return verdict
    }

    public func requestLocation(_ request: LocationRequest) async throws -> Location {
        if skips, let verdict = await verdict() {
            switch verdict {
            case .skip(let until):
                log("GeoClue skipped: it had no agent for your user in an earlier run (remembered in \(memory.path)); "
                    + "asked again at a new login, once an agent connects to the system bus, or after \(Self.words(until))")
                throw GeoClueError.rememberedNoAgent(path: memory.path, until: until)
            case .tryAgain(let why):
                log("GeoClue asked again although it had no agent in an earlier run: \(why)")
            }
        }
        do {
            let fix = try await base.requestLocation(request)
            memory.forget()
            return fix
        } catch {
            if let reason = Self.noAgentReason(error) { await learn(reason) }
            throw error
        }
    }

    /// GeoClue's moves while `--follow` runs: the base's. Only the source that won is watched,
    /// so GeoClue has just answered and the memory is forgotten: nothing to skip.
    public func watch(_ request: LocationRequest) -> LocationWatch? {
        base.watch(request)
    }

    /// Why `error` means GeoClue has no agent here, or nil when it does not show that.
    public static func noAgentReason(_ error: any Error) -> GeoClueAgentMemory.Reason? {
        switch error as? GeoClueError {
        case .noAgent(let seconds) where seconds >= minimumSeconds:
            return .getClientUnanswered
        case .notAllowed(let reason) where reason.lowercased().contains("agent"):
            return .refusedNoAgent
        default:
            return nil
        }
    }

    private func learn(_ reason: GeoClueAgentMemory.Reason) async {
        let now = clock.date
        let current = situation(now)
        let names = await watch?.busNames()
        memory.save(GeoClueAgentMemory.Remembered(reason: reason, since: now, bootID: current.bootID,
                                                  session: current.session, busNames: names))
        if skips {
            log("\(reason.words); remembered in \(memory.path): runs without [location] sources skip GeoClue "
                + "until a new login, an agent on the system bus, or \(Self.words(now.addingTimeInterval(GeoClueAgentSituation.lifetime)))")
        }
    }

    /// "2026-11-28T04:12:00+00:00" (UTC: the file's dates are not local).
    static func words(_ date: Date) -> String {
        LocalTime.iso8601(date, utcOffset: 0)
    }
}
