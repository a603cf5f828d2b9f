import Core
import HTTP
import HTTPMessages
import Management
import Model
import Store
import Visit

/// The click of a `POST /api/v1/track/click` that `ClientClickAPI` accepted (decision
/// 0027): made as a web visit's is (kind `desktop`, the visitor's platform and in-app
/// browser from its User-Agent, its country when a GeoIP database is set, the link's
/// dynamic values from the landing page's query values), written through the group commit, and
/// answered once durable, as a tracked redirect's (decision 0025): the id goes back to the
/// page, and a lead quotes it later. Bots and crawlers that run the page's script make
/// no click (`clickId: null`), as their visits make none.
extension VisitFlow {
    func clientClick(
        _ pending: ClientClickAPI.Pending, api: ClientClickAPI, _ request: HTTPRequest, _ context: inout RequestContext
    ) -> HTTPHandlerResult {
        let visitor = visitors.with(context.loopIndex) {
            $0.classify(method: "POST", userAgent: request.headers["user-agent"])
        }
        guard visitor.recordsClick, let platform = visitor.platform else {
            return .response(api.recorded(pending, clickId: nil))
        }
        let link = pending.link
        let now = clock()
        // This request's Referer is the customer's own page, not the site that sent the
        // visitor there (which the script does not report): no referring site.
        let click = makeClick(
            PlannedClick(kind: .desktop, platform: platform), link, visitor, pending.dynamicValues, request, context,
            now: now,
            keepReferrer: false)
        let responder = context.deferResponse()
        store.write(
            click, handoff: nil,
            completion: { result in
                switch result {
                case .success: responder.respond(api.recorded(pending, clickId: click.id))
                case .failure(let error): responder.respond(api.failed(pending, error: error))
                }
            })
        return .deferred
    }
}
