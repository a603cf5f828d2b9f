import Core
import Visit

/// What each event loop keeps for its visits, touched only by its own thread: the
/// user agents it classified last and its page of CSPRNG bytes.
final class VisitLoops: Sendable {
    struct State {
        var visitors = VisitorCache()
        var random = SecureRandomBuffer()
    }

    private let states: PerLoop<State>

    init(loops: Int) {
        states = PerLoop(count: loops) { State() }
    }

    /// The visitor of a request on loop `loop`. Call only on that loop's thread.
    func classify(method: String, userAgent: String?, loop: Int) -> Visitor {
        states.with(loop) { $0.visitors.classify(method: method, userAgent: userAgent) }
    }

    /// `count` CSPRNG bytes from loop `loop`'s page. Call only on that loop's thread.
    func randomBytes(_ count: Int, loop: Int) -> [UInt8] {
        states.with(loop) { $0.random.take(count) }
    }
}
