import HTTP
import HTTPMessages
import Management
import Store

/// One workspace-API operation's authorization, around its route: the request id's rule,
/// the secret key and its scope (none on a public operation), the conversions' per-key
/// limit. A refusal is answered here, in the API's envelope; otherwise the route runs
/// with the key in `RequestContext.identity`.
struct ManagementAuthorize: RouteMiddleware {
    let api: ManagementAPI
    let operation: ManagementOperation
    let reader: @Sendable (RequestContext) -> any StoreReader

    func respond(
        to request: HTTPRequest, _ context: inout RequestContext, _ parameters: RouteParameters,
        next: Router.Handler
    ) -> HTTPHandlerResult {
        var requestId = context.requestId ?? ""
        let decided = api.authorize(
            operation, request, reader: reader(context), requestId: &requestId, log: context.logger)
        context.requestId = requestId
        switch decided {
        case .refused(let response):
            return .response(response)
        case .key(let key):
            context.identity = WorkspaceKeyIdentity(key: key)
            return next(request, &context, parameters)
        }
    }
}
