import CSystem
import Core
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Watches the certificate directory with inotify and calls `onChange` once a
/// burst of changes has settled (a certificate and key are often written in steps).
final class CertificateWatcher: Sendable {
    private let stopFD: Int32
    private let thread: OSThread
    /// The thread closes `stopFD` as it ends: a second `stop` must not write to that
    /// number, which by then may be another file or a client's socket.
    private let stopped = Atomic<Bool>(false)

    private init(stopFD: Int32, thread: OSThread) {
        self.stopFD = stopFD
        self.thread = thread
    }

    static func start(directory: String, settleMilliseconds: Int32 = 250, onChange: @escaping @Sendable () -> Void)
        -> CertificateWatcher?
    {
        var watch: Int32 = 0
        let fd = csys_inotify_watch_dir(directory, &watch)
        guard fd >= 0 else { return nil }
        let stopFD = csys_eventfd()
        let thread = OSThread(name: "biqli-certwatch") {
            var fds = [
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
            ]
            var buffer = [UInt8](repeating: 0, count: 4096)
            var dirty = false
            while true {
                let n = poll(&fds, 2, dirty ? settleMilliseconds : -1)
                if n < 0 && errno == EINTR { continue }
                if fds[1].revents != 0 { break }
                if n == 0 && dirty {
                    dirty = false
                    onChange()
                    continue
                }
                if fds[0].revents != 0 {
                    while read(fd, &buffer, buffer.count) > 0 {}
                    dirty = true
                }
            }
            close(fd)
            close(stopFD)
        }
        return CertificateWatcher(stopFD: stopFD, thread: thread)
    }

    /// Ends the thread; once (later calls do nothing).
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
    }

    /// Waits for the thread to end (after `stop`).
    func join() { thread.join() }
}
