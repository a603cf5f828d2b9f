import HTTPMessages
import Synchronization

/// Meets a response made on one thread with the responder that another hands over,
/// whichever comes first: the background thread may finish before the server asked
/// for the deferred answer.
final class DeferredBox: Sendable {
    private enum State {
        case empty
        case response(HTTPResponse)
        case responder(@Sendable (HTTPResponse) -> Void)
        case done
    }

    private let state = Mutex(State.empty)

    func deliver(_ response: HTTPResponse) {
        let respond: (@Sendable (HTTPResponse) -> Void)? = state.withLock { s in
            switch s {
            case .empty:
                s = .response(response)
                return nil
            case .responder(let r):
                s = .done
                return r
            case .response, .done:
                return nil
            }
        }
        respond?(response)
    }

    func wait(_ respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let ready: HTTPResponse? = state.withLock { s in
            switch s {
            case .empty:
                s = .responder(respond)
                return nil
            case .response(let r):
                s = .done
                return r
            case .responder, .done:
                return nil
            }
        }
        if let ready { respond(ready) }
    }
}
