import HTTP
import HTTPMessages
import Management

/// The workspace API's request id, set before its route runs (its 404 and 405 included):
/// the caller's `X-Biq-Request-Id` when valid, else a new one. Every answer carries it,
/// and every log line of the request's work (`RequestContext.logger`).
struct ManagementRequestId: RouteMiddleware {
    func respond(
        to request: HTTPRequest, _ context: inout RequestContext, _ parameters: RouteParameters,
        next: Router.Handler
    ) -> HTTPHandlerResult {
        context.requestId = ManagementAPI.requestId(request.headers)
        return next(request, &context, parameters)
    }
}
