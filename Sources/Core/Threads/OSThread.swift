import CSystem
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A named, joinable OS thread running one closure: the event loops, the certificate
/// watcher and the store's writer, checkpointer and pruner. Foundation's `Thread` would
/// do, but the runtime paths keep Foundation out.
public final class OSThread: Sendable {
    private let handle: pthread_t
    /// Joined or detached: each may happen once, and only one of them.
    private let settled = Atomic<Bool>(false)

    /// Not Sendable: it carries the body, and what the body holds, to the new thread only.
    private final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = String(name.prefix(15))
            self.body = body
        }
    }

    /// Starts `body` on a new thread named `name` (the first 15 characters show in `top -H`).
    public convenience init(name: String, _ body: @escaping @Sendable () -> Void) {
        self.init(Start(name: name, body: body))
    }

    /// Starts `body` on a new thread named `name`, with what it holds: `body` is `sending`,
    /// so it may hold state that is not `Sendable` (a database connection, an event loop)
    /// when nothing else holds it, which makes the new thread that state's only user, as
    /// the compiler checks. (A static function: an initialiser beside the one above would
    /// make every trailing closure ambiguous.)
    public static func start(name: String, taking body: sending @escaping () -> Void) -> OSThread {
        OSThread(Start(name: name, body: body))
    }

    private init(_ body: Start) {
        let start = Unmanaged.passRetained(body).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, nil,
            { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                csys_set_thread_name(start.name)
                start.body()
                return nil
            }, start)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        self.handle = handle
    }

    /// Waits for the thread to finish. Never from the thread itself; later calls do nothing.
    public func join() {
        guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pthread_join(handle, nil)
    }

    /// Lets the thread's resources go when it ends, for a thread that cannot be joined
    /// (the store closed from its own writer thread). Instead of `join`.
    public func detach() {
        guard !settled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pthread_detach(handle)
    }

    /// True when called on this thread.
    public var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }

    /// Lowers the calling thread's CPU priority to the lowest (nice 19), for background
    /// work that must not take CPU time from the event loops: the scheduler then gives it
    /// what they leave. The other threads keep theirs.
    public static func lowerCurrentPriority() {
        _ = csys_lower_thread_priority(19)
    }
}
