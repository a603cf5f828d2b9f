import CSystem
import Model

#if canImport(Glibc)
import Glibc
#endif

/// A named pthread running one closure, joinable. Foundation's `Thread` would do,
/// but the store keeps Foundation out of its runtime paths.
final class StoreThread: @unchecked Sendable {
    private var handle: pthread_t = 0
    private var joined = false

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 characters show in `top -H`).
    init(name: String, body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        let rc = pthread_create(
            &handle, nil,
            { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                csys_set_thread_name(start.name)
                start.body()
                return nil
            }, start)
        precondition(rc == 0, "pthread_create failed: \(rc)")
    }

    /// Waits for the thread to finish. Call once, never from the thread itself.
    func join() {
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    /// Lets the thread's resources go when it ends, for a thread that cannot be joined
    /// (the store closed from its own writer thread). Call once, instead of `join`.
    func detach() {
        guard !joined else { return }
        joined = true
        pthread_detach(handle)
    }

    /// True when called on this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }
}
