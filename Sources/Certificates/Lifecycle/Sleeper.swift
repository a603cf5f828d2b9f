import CSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A thread's waits that `stop` ends at once and `wake` cuts short.
final class Sleeper: Sendable {
    private let stopFD: Int32
    private let wakeFD: Int32
    private let stopped = Atomic<Bool>(false)

    init() {
        stopFD = csys_eventfd()
        wakeFD = csys_eventfd()
    }

    deinit {
        close(stopFD)
        close(wakeFD)
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Waits `milliseconds` (or until `wake`); false once stopped.
    func sleep(milliseconds: Int64) -> Bool {
        guard !isStopped else { return false }
        var fds = [
            pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, Int32(clamping: max(milliseconds, 0)))
        if fds[1].revents != 0 {
            var value: UInt64 = 0
            _ = read(wakeFD, &value, 8)
        }
        return !isStopped
    }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
    }
}
