import CSystem
import Core
import HTTP
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The configured domains' hostnames, read on loop 0 from its catalog snapshot (no
/// query: the snapshot changes when the API, the CLI or `apply` change a domain).
final class LoopZeroDomains: Sendable {
    private let server: HTTPServer
    private let store: any Store
    /// The last request's number, and the answer of the last one loop 0 answered (nil:
    /// its read failed), so that a late answer to an earlier request is never taken.
    private let answer = Mutex<(asked: UInt64, answered: UInt64, hostnames: [String]?)>((0, 0, nil))
    private let ready: Int32

    init(server: HTTPServer, store: any Store) {
        self.server = server
        self.store = store
        self.ready = csys_eventfd()
    }

    deinit { close(ready) }

    /// From the manager's thread; nil when loop 0 cannot read them or does not answer
    /// within 5 s (the manager then goes on with the ones it knew: never "no domains").
    func current() -> [String]? {
        guard server.loopCount > 0 else { return nil }
        let asked = answer.withLock { a in
            a.asked += 1
            return a.asked
        }
        server.post(toLoop: 0) { [self] in
            // Alternate hostnames get their own certificates, as domains (decision 0033 §4).
            let hostnames = try? store.reader(loop: 0).domains().flatMap {
                [$0.hostname] + ($0.alternateHostname.map { [$0] } ?? [])
            }
            answer.withLock { a in (a.answered, a.hostnames) = (asked, hostnames) }
            var one: UInt64 = 1
            _ = write(ready, &one, 8)
        }
        let deadline = Clock.monotonicNanoseconds() &+ 5_000_000_000
        while true {
            let now = Clock.monotonicNanoseconds()
            guard now < deadline else { return nil }
            var entry = pollfd(fd: ready, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32((deadline - now) / 1_000_000) + 1) == 1 else { return nil }
            var value: UInt64 = 0
            _ = read(ready, &value, 8)
            let (answered, hostnames) = answer.withLock { ($0.answered, $0.hostnames) }
            if answered == asked { return hostnames }
        }
    }
}
