import Core
import HTTP
import HTTPTypes
import Model
import Store
import Templates
import Visit

/// A visit of `https://<domain>/<key>`: look the link up, classify the visitor, record
/// the click (and for store-bound mobile visitors, the handoff), then redirect or render.
///
/// Responses that carry a handoff token (the Play redirect, the Deep View) are sent only
/// after the click and handoff are durable; other redirects do not wait for their click.
struct VisitFlow: Sendable {
    let services: EdgeServices
    /// Each loop's classified user agents (touched only by that loop's thread).
    let visitors: PerLoop<VisitorCache>
    /// A full disk fails every durable visit: one line per 10 s, not one per visit.
    let writeFailures: LogThrottle

    init(services: EdgeServices) {
        self.services = services
        self.visitors = PerLoop(count: services.configuration.loops) { VisitorCache() }
        self.writeFailures = LogThrottle("visit write failed", log: services.log)
    }

    /// True for a syntactically possible link key (`^[A-Za-z0-9_-]{1,64}$`: the
    /// base64url alphabet). A table look-up per byte, not a `Set`: every visit checks
    /// its key, and hashing each byte cost more than the link lookup that follows.
    static func isPossibleKey(_ key: Substring) -> Bool {
        let count = key.utf8.count
        return count >= 1 && count <= 64 && Base64URL.isAlphabet(key)
    }

    func visit(_ request: HTTPRequest, _ context: inout RequestContext, domain: Domain, key: Substring)
        -> HTTPHandlerResult
    {
        let reader = services.reader(context)
        guard VisitFlow.isPossibleKey(key), let link = try? reader.link(host: domain.hostname, key: String(key)) else {
            return .response(notFound(domain, request))
        }
        guard link.enabled else {
            if let url = domain.notFoundUrl { return .response(Self.redirect(url)) }
            return .response(
                services.pages.linkDisabled(acceptLanguage: request.headers["accept-language"]))
        }
        let visitor = visitors.with(context.loopIndex) {
            $0.classify(method: request.method.name, userAgent: request.headers["user-agent"])
        }
        // Desktop visitors and HEAD never need the app: skip the lookup on the busiest path.
        let app: MobileApp?
        switch visitor.kind {
        case .desktop, .head: app = nil
        default: app = link.mobile.flatMap { (try? reader.app($0.appId)) ?? nil }
        }
        let decision = VisitDecision.decide(link: link, app: app, domain: domain, visitor: visitor)
        let now = services.nowMilliseconds

        switch decision {
        case .head(let location):
            return .response(Self.redirect(location))
        case .preview:
            services.clicks.recordPreview(appId: link.mobile?.appId, linkId: link.id, at: now, loop: context.loopIndex)
            let model = LinkPreviewModel(link: link, app: app)
            guard let model else { return .response(Self.redirect(link.url)) }
            return .response(
                services.pages.linkPreview(model, acceptLanguage: request.headers["accept-language"]))
        case .redirect(let location, let kind):
            let click = makeClick(link, app, visitor, kind, request, context, now: now)
            // Nothing in this answer depends on the click being stored: do not wait for it.
            services.clicks.record(click, loop: context.loopIndex)
            return .response(Self.redirect(location))
        case .playStore(let app), .deepView(let app):
            return handoffVisit(decision, app: app, link: link, visitor: visitor, request, &context, now: now)
        }
    }

    private func handoffVisit(
        _ decision: VisitDecision, app: MobileApp, link: Link, visitor: Visitor, _ request: HTTPRequest,
        _ context: inout RequestContext, now: Int64
    ) -> HTTPHandlerResult {
        guard let mobile = link.mobile else { return .response(Self.redirect(link.url)) }
        let isAndroid: Bool
        if case .playStore = decision { isAndroid = true } else { isAndroid = false }
        let dynamic = DynamicValues.capture(query: request.query, allowed: mobile.dynamicKeys)
        let click = makeClick(
            link, app, visitor, isAndroid ? .androidRedirect : .deepView, request, context, now: now, dynamic: dynamic)
        let token = HandoffToken.generate(milliseconds: UInt64(max(now, 0)))
        guard let snapshot = HandoffSnapshotBuilder.snapshot(link: link, dynamic: dynamic) else {
            return .response(Self.redirect(link.url))
        }
        let handoff = HandoffSnapshotBuilder.handoff(
            token: token, clickId: click.id, app: app, platform: isAndroid ? .android : .ios, snapshot: snapshot,
            now: now)

        // Render before writing: a link whose page cannot be built falls back without a handoff.
        let success: HTTPResponse
        // Only used when the write fails: built then, not on every visit.
        let fallbackLocation: @Sendable () -> String
        if isAndroid, let android = app.android {
            success = Self.redirect(PlayReferrer.url(app: android, token: token))
            fallbackLocation = { android.playStoreUrl ?? PlayReferrer.storeBase + "?id=" + android.packageName }
        } else {
            let nonce = CSPNonce.fresh()
            guard let ios = app.ios,
                let page = services.deepViews.page(
                    app: app, link: link, token: token, nonce: nonce,
                    acceptLanguage: request.headers["accept-language"], loop: context.loopIndex)
            else {
                return .response(Self.redirect(app.ios?.fallbackUrl ?? link.url))
            }
            success = page
            let url = link.url
            fallbackLocation = { ios.fallbackUrl ?? ios.storeUrl ?? url }
        }
        let responder = context.deferResponse()
        let writeFailures = self.writeFailures
        services.store.write(
            { tx in
                try tx.insertClick(click)
                try tx.insertHandoff(handoff)
            },
            completion: { result in
                switch result {
                case .success:
                    responder.respond(success)
                case .failure(let error):
                    // The visitor still reaches the store; only this install's attribution is lost.
                    writeFailures.write { [("detail", .string("\(error)"))] }
                    responder.respond(Self.redirect(fallbackLocation()))
                }
            })
        return .deferred
    }

    private func makeClick(
        _ link: Link, _ app: MobileApp?, _ visitor: Visitor, _ kind: ClickKind, _ request: HTTPRequest,
        _ context: RequestContext, now: Int64, dynamic: [(String, String)]? = nil
    ) -> Click {
        let captured =
            dynamic ?? link.mobile.map { DynamicValues.capture(query: request.query, allowed: $0.dynamicKeys) } ?? []
        var sourceHash: [UInt8]?
        // The address hash exists only for consented probabilistic matching: collect it only
        // for apps that allow that (data minimisation; it also keeps the store's candidate
        // index to the clicks that can be matched).
        if case .ios = visitor.kind, app?.ios?.probabilisticFallback == true {
            let address = services.clients.clientAddress(peer: context.peerAddress, headers: request.headers)
            sourceHash = services.sourceHasher.hash(address)
        }
        return Click(
            id: services.clicks.newId(at: now, loop: context.loopIndex), linkId: link.id,
            appId: link.mobile?.appId, domain: link.domain, at: now, kind: kind,
            platform: visitor.platform ?? .desktop, inAppBrowser: visitor.inAppBrowser, dynamic: captured,
            sourceHash: sourceHash, osVersion: visitor.osVersion)
    }

    func notFound(_ domain: Domain?, _ request: HTTPRequest) -> HTTPResponse {
        if let url = domain?.notFoundUrl { return Self.redirect(url) }
        return services.pages.notFound(acceptLanguage: request.headers["accept-language"])
    }

    /// `HTTPResponse.redirect(302, to:)` plus `Referrer-Policy`.
    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse.redirect(302, to: location, extra: referrerPolicy)
    }

    /// Where a visit is sent learns nothing of the short link or its query.
    static let referrerPolicy = [("Referrer-Policy", "no-referrer")]
}
