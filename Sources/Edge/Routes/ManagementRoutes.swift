import HTTP
import Management

/// The workspace API under `/api/v1/` (issue 4). One router entry takes every method
/// and path below `/api/v1/` (after the resolver's `/api/v1/track/open`, installed
/// before it), so that unknown paths and wrong methods there get the API's JSON
/// envelope rather than the link domain's pages.
///
/// Only the glue lives here: the `Management` module answers an `HTTPRequest` given
/// the loop's store reader, and a write's answer arrives later through `perform`,
/// which this route turns into the server's deferred response.
enum ManagementRoutes {
    static func install(on router: RouterBuilder, services: EdgeServices) {
        let log = services.log
        var environment = ManagementEnvironment(
            httpsActive: { host in services.httpsActive(host) }, now: { services.nowMilliseconds },
            publicURL: services.configuration.publicURL, retentionDays: services.configuration.retentionDays,
            logFailure: { message, detail in log.error(message, [("detail", .string(detail))]) },
            certificate: { host in services.certificate(host) })
        let resolver = services.resolver
        environment.limitConversion = { keyId in
            resolver.admit(.conversionKey, keyId, nowMillis: services.nowMilliseconds)
        }
        environment.webhookAllowHTTP = services.configuration.webhooks.allowHTTP
        environment.webhookSecrets = services.webhookSecrets
        let api = ManagementAPI(store: services.store, environment: environment)
        router.add(nil, "/api/v1/*path", name: "management") { request, context, _ in
            var name = context.routeName
            let prepared = api.prepare(request, reader: services.reader(context), routeName: &name)
            context.routeName = name
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
