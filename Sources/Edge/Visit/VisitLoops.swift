import Core
import Visit

/// What each event loop keeps for its visits, touched only by its own thread: the
/// user agents it classified last.
final class VisitLoops: Sendable {
    struct State {
        var visitors = VisitorCache()
    }

    private let states: PerLoop<State>

    init(loops: Int) {
        states = PerLoop(count: loops) { State() }
    }

    /// The visitor of a request on loop `loop`. Call only on that loop's thread.
    func classify(method: String, userAgent: String?, loop: Int) -> Visitor {
        states.with(loop) { $0.visitors.classify(method: method, userAgent: userAgent) }
    }
}
