import HTTP
import HTTPMessages
import Management
import Resolver

/// `/api/v1/track/click` (every method: `ClientClickAPI` answers 405 itself, in the API's
/// envelope), installed before the workspace API's catch-all: client-side click tracking
/// from customers' pages (decision 0027). Rate-limited per client address (an IPv6
/// address's /64: `AddressBlock`) and per browser key with the resolver's buckets, which a
/// fleet shares (decision 0016).
enum ClientClickRoutes {
    static func install(on router: RouterBuilder, services: EdgeServices, flow: VisitFlow) {
        let log = services.log
        let resolver = services.resolver
        let api = ClientClickAPI(
            limitAddress: { address in
                resolver.admit(.clickAddress, AddressBlock.limitKey(address), nowMillis: services.nowMilliseconds)
            },
            limitKey: { keyId in resolver.admit(.clickKey, keyId, nowMillis: services.nowMilliseconds) },
            log: log)
        router.add(nil, ClientClickAPI.path, name: "track_click") { request, context, _ in
            let address = services.clients.clientAddress(context, request.headers)
            switch api.prepare(request, reader: services.reader(context), clientAddress: address) {
            case .answer(let response):
                return .response(response)
            case .record(let pending):
                return flow.clientClick(pending, api: api, request, &context)
            }
        }
    }
}
