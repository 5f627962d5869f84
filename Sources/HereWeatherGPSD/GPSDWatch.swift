import CGPS
#if canImport(Glibc)
import Glibc
#endif
import HereWeatherCore

/// gpsd kept open while `--follow` runs: one connection, watching, read on a thread of its own
/// that blocks on the socket and the watch's end together with no timeout (no polling); each
/// TPV that qualifies (`GPSDSessionRules`, watching) goes out as it comes. gpsd closing the
/// connection ends the watch (a `--verbose` note); a gpsd without a receiver is watched on, for
/// one plugged in later.
extension GPSDLocationProvider {
    public func watch(_ request: LocationRequest) -> LocationWatch? {
        let (host, port, address, clock, library) = (self.host, self.port, self.address, self.clock, self.library)
        return LocationWatch { log in
            AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
                let wake = WakeSignal()
                // The connection's own time to be made (`[location] timeout`), from now.
                let session = GPSDSession(host: host, port: port, address: address, request: request.starting(at: clock.now),
                                          clock: clock, library: library)
                continuation.onTermination = { _ in
                    session.cancel()
                    wake.raise()
                }
                let started = BlockingCall.startThread {
                    let end = BrokenPipeGuard.run { session.watch(wake: wake) { continuation.yield($0) } }
                    if let end, !wake.isRaised { log("--follow: \(end) Following the last place.") }
                    continuation.finish()
                }
                if !started {
                    log("--follow: no thread to read gpsd on; its fixes are not followed.")
                    continuation.finish()
                }
            }
        }
    }
}

extension GPSDSession {
    /// Reads gpsd until it closes the connection or `wake` is raised, handing each qualifying fix
    /// to `deliver`; returns why it ended, for `--verbose` (`nil` when raised).
    func watch(wake: WakeSignal, deliver: (Location) -> Void) -> String? {
        let outcome: Result<String?, Error> = connected { connection in
            var rules = GPSDSessionRules(request: request, address: address)
            rules.watching = true
            // Whether the last read delivered a line: libgps may hold more (see CGPS/shim.h).
            var mayHoldMore = false
            while !wake.isRaised {
                if !mayHoldMore, !wake.wait(for: connection.socket) { break }
                let count = connection.read()
                guard count >= 0 else {
                    let error = hw_gps_peer_closed(connection.socket) ? LocationError.gpsdClosed(address: address)
                        : .gpsdUnreadable(address: address)
                    return .success(Self.firstSentence(of: error.message))
                }
                mayHoldMore = count > 0
                guard count > 0 else { continue }
                switch rules.receive(connection.report(), arrival: clock.date) {
                case .continue: continue
                case .answer(let location): deliver(location)
                case .fail(.gpsdNoReceiver): continue
                case .fail(let error): return .success(error.message)
                }
            }
            return .success(nil)
        }
        switch outcome {
        case .success(let end): return end
        case .failure(let error as any UserFacingError): return error.message
        case .failure: return nil
        }
    }

    /// "gpsd on 127.0.0.1:2947 closed the connection before a fix." without its advice, and
    /// without "before a fix" (the watch had its fixes).
    static func firstSentence(of message: String) -> String {
        let sentence = message.split(separator: ". ", maxSplits: 1).first.map(String.init) ?? message
        return sentence.replacing(" before a fix", with: "") + "."
    }
}
