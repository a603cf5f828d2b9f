import CSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The one part of an event loop that other threads reach: work posted to it, and the
/// eventfd that wakes it. Everything else of a loop (`EventLoop`: its connections, timers,
/// metrics, certificates) is touched on the loop's own thread only, and is not `Sendable`:
/// work that needs it is posted here and receives it as an argument on that thread.
///
/// Only a loop that is (about to be) asleep in `epoll_wait` costs a post an eventfd write.
/// A busy loop picks posted work up before it next sleeps, so a burst of completions from
/// the store's writer costs one wake-up, not one per completion.
final class EventLoopMailbox: Sendable {
    /// What a post asks of the loop.
    enum Work: Sendable {
        /// Work that needs nothing of the loop (a handler's continuation).
        case plain(@Sendable () -> Void)
        /// Work on the loop's own state, which it receives on the loop's thread.
        case onLoop(@Sendable (EventLoop) -> Void)
    }

    private struct State {
        var work: [Work] = []
        var sleeping = false
    }

    /// The loop's index (0..<loops).
    let index: Int
    /// Written to wake the loop; registered in the loop's epoll.
    let wakeFD: Int32
    private let state = Mutex(State())

    init(index: Int) throws(HTTPServerError) {
        self.index = index
        wakeFD = csys_eventfd()
        guard wakeFD >= 0 else { throw .system("eventfd", errno) }
    }

    /// Closed with the last reference: a `Responder` may outlive its loop, and must never
    /// write to a descriptor number that by then belongs to something else.
    deinit { close(wakeFD) }

    /// Runs `work` on the loop's thread soon. Safe from any thread.
    func post(_ work: @escaping @Sendable () -> Void) {
        post(.plain(work))
    }

    /// Runs `work` on the loop's thread soon, with the loop. Safe from any thread.
    func post(_ work: @escaping @Sendable (EventLoop) -> Void) {
        post(.onLoop(work))
    }

    private func post(_ work: Work) {
        let wake = state.withLock { box in
            box.work.append(work)
            guard box.sleeping else { return false }
            box.sleeping = false
            return true
        }
        if wake {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Loop side: takes the posted work, or, when there is none, marks the loop as going to sleep.
    func takeOrSleep() -> [Work]? {
        state.withLock { box in
            if box.work.isEmpty {
                box.sleeping = true
                return nil
            }
            let items = box.work
            box.work.removeAll(keepingCapacity: true)
            return items
        }
    }

    /// Loop side: awake again (posts need not write the eventfd).
    func awake() {
        state.withLock { $0.sleeping = false }
    }

    /// Loop side: reads the eventfd's count (the work itself runs at the top of the next pass).
    func drainWake() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
    }
}
