import CDBus
#if canImport(Glibc)
import Glibc
#endif

extension DBusConnection {
    /// Processes incoming messages on the calling thread for as long as `delivered` (called
    /// after each batch, without the lock: it takes the subscriptions' signals with `drain`)
    /// answers true; between batches it sleeps in `poll` on the bus socket and the wake-up
    /// descriptor with no timeout, so an idle bus costs no wake-up (`pump`'s waits wake every
    /// 50 ms). For a connection of its own, with no call in flight: nothing else may wait on it
    /// meanwhile, except `delivered` itself, which may make calls (`callBlocking`) and must
    /// then `wake()` it, since what arrived during those calls is already off the socket.
    /// `wake()` makes it call `delivered` at once. Returns why the connection ended, or `nil`
    /// when `delivered` said to stop.
    public func listen(_ delivered: () -> Bool) -> DBusError? {
        while true {
            let ready = lock.withLock { () -> Result<pollfd, DBusError> in
                while true {
                    let processed = hw_sd_bus_process(bus)
                    if processed < 0 { return .failure(.noBus(reason: "the bus connection ended (\(SystemError.text(-processed)))")) }
                    if processed == 0 { break }
                }
                let descriptor = hw_sd_bus_get_fd(bus), events = hw_sd_bus_get_events(bus)
                guard descriptor >= 0, events >= 0 else { return .failure(.noBus(reason: "the bus connection ended")) }
                return .success(pollfd(fd: descriptor, events: Int16(truncatingIfNeeded: events), revents: 0))
            }
            let socket: pollfd
            switch ready {
            case .failure(let error): return error
            case .success(let entry): socket = entry
            }
            guard delivered() else { return nil }
            var pollers = [socket, pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            let count: nfds_t = wakeDescriptor >= 0 ? 2 : 1
            if poll(&pollers, count, -1) < 0, errno != EINTR {
                return .noBus(reason: "cannot wait on the bus (\(SystemError.text(errno)))")
            }
            if wakeDescriptor >= 0, pollers[1].revents != 0 { hw_wake_drain(wakeDescriptor) }
        }
    }
}
