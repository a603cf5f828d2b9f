import CSystem
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
    private let answer = Mutex<[String]?>(nil)
    private let ready: Int32

    init(server: HTTPServer, store: any Store) {
        self.server = server
        self.store = store
        self.ready = csys_eventfd()
    }

    deinit { close(ready) }

    /// From the manager's thread; nil when loop 0 does not answer within 5 s.
    func current() -> [String]? {
        guard server.loopCount > 0 else { return nil }
        answer.withLock { $0 = nil }
        server.post(toLoop: 0) { [self] in
            let hostnames = (try? store.reader(loop: 0).domains().map(\.hostname)) ?? []
            answer.withLock { $0 = hostnames }
            var one: UInt64 = 1
            _ = write(ready, &one, 8)
        }
        var entry = pollfd(fd: ready, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 5_000) == 1 else { return nil }
        var value: UInt64 = 0
        _ = read(ready, &value, 8)
        return answer.withLock { $0 }
    }
}
