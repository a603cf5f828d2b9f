import HTTP
import HTTPMessages

/// The server's handler: the console's listener goes to the console's route table and
/// every other listener to the edge's, so that neither can reach the other's routes
/// (the console is never on a public listener). One comparison per request.
final class ListenerDispatch: HTTPHandler, Sendable {
    let main: Router
    let console: Router?

    init(main: Router, console: Router?) {
        self.main = main
        self.console = console
    }

    func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        if context.listener == .console, let console { return console.handle(request, &context) }
        return main.handle(request, &context)
    }
}
