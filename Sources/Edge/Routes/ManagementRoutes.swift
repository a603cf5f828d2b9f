import HTTP
import HTTPMessages
import Management
import Store

/// The workspace API under `/api/v1/` (issue 4): one route per operation in a group that
/// answers for itself, so that unknown paths and wrong methods there get the API's JSON
/// envelope rather than the link domain's pages. The resolver's `/api/v1/track/open` and
/// the client-click route (`track.click`) are the edge's own, more specific routes.
///
/// The group's middleware gives every answer its request id (`ManagementRequestId`);
/// each operation's adds its authorization (`ManagementAuthorize`: the id's rule, the
/// key, its scope, the conversions' limit). A write's answer arrives later through
/// `perform`, which the route turns into the server's deferred response.
enum ManagementRoutes {
    static let prefix = "/api/v1"
    /// The route name of the group's own 404 and 405 (the access log's and metrics' label).
    static let answerName = "management"

    static func install(on router: RouterBuilder, services: EdgeServices) {
        let log = services.log
        var environment = ManagementEnvironment(
            httpsActive: { host in services.httpsActive(host) }, now: { services.nowMilliseconds },
            publicURL: services.configuration.publicURL, retentionDays: services.configuration.retentionDays,
            log: log,
            certificate: { host in services.certificate(host) })
        let resolver = services.resolver
        environment.limitConversion = { keyId in
            resolver.admit(.conversionKey, keyId, nowMillis: services.nowMilliseconds)
        }
        environment.webhookAllowHTTP = services.configuration.webhooks.allowHTTP
        environment.webhookSecrets = services.webhookSecrets
        let api = ManagementAPI(store: services.store, environment: environment)
        install(api, on: router) { context in services.reader(context) }
    }

    /// The API's group and routes, each operation's store reads through `reader`.
    static func install(
        _ api: ManagementAPI, on router: RouterBuilder,
        reader: @escaping @Sendable (RequestContext) -> any StoreReader
    ) {
        let group = router.group(prefix, middleware: [ManagementRequestId()]).decodingParameters().answering(
            name: answerName,
            notFound: { request, context, _ in
                .response(api.notFound(request, requestId: context.requestId ?? ""))
            },
            methodNotAllowed: { _, context, allowed in
                .response(api.methodNotAllowed(allowed, requestId: context.requestId ?? ""))
            })
        for operation in api.operations where !operation.isEdge {
            let path = String(operation.pattern.dropFirst(prefix.count))
            let authorized = group.group(middleware: [
                ManagementAuthorize(api: api, operation: operation, reader: reader)
            ])
            authorized.add([operation.method], path, name: operation.operationId) { request, context, parameters in
                guard let key = (context.identity as? WorkspaceKeyIdentity)?.key else {
                    preconditionFailure("a workspace API route runs inside ManagementAuthorize")
                }
                let prepared = api.prepare(
                    operation, request, parameters: parameters.values, key: key,
                    requestId: context.requestId ?? "", reader: reader(context), log: context.logger)
                switch prepared {
                case .answer(let response):
                    return .response(response)
                case .write(let write):
                    let responder = context.deferResponse()
                    api.perform(write) { responder.respond($0) }
                    return .deferred
                }
            }
        }
    }
}
