import Core
import GeoIP
import HTTP
import HTTPMessages
import Model
import Store
import Templates
import Visit

/// A visit of `https://<domain>/<key>`: look the link up, classify the visitor, record
/// the click (and for store-bound mobile visitors, the handoff), then redirect or render.
///
/// Responses that carry a handoff token (the Play redirect, the Deep View) are sent only
/// after the click and handoff are durable, and so are web redirects that carry the
/// click's id (conversion tracking); other redirects do not wait for their click.
struct VisitFlow: Sendable {
    /// The links, apps and durable writes (`StoreVisits` in service).
    let store: any VisitStore
    let pages: Pages
    let deepViews: DeepViewCache
    /// The clicks no answer waits for (`ClickRecorder` in service).
    let clicks: any ClickRecording
    /// Unix milliseconds: the clicks' and handoffs' time.
    let clock: @Sendable () -> Int64
    let clients: ClientAddressResolver
    let sourceHasher: SourceAddressHasher
    /// Countries of clicks (`BIQLI_EDGE_GEOIP_DB`); nil without a database.
    let geoIP: GeoIPLookup?
    /// Each loop's classified user agents (touched only by that loop's thread).
    let visitors: PerLoop<VisitorCache>
    /// Links' options prepared for their visits (`PreparedOptions`), per loop.
    let preparedOptions: PerLoop<PreparedOptionsCache>
    /// The in-app Android answers' URIs prepared per app (`InAppIntentTemplate`), per loop.
    let inAppIntents: PerLoop<InAppIntentCache>
    /// A full disk fails every durable visit: one line per 10 s, not one per visit.
    let writeFailures: LogThrottle

    init(services: EdgeServices) {
        self.init(
            store: StoreVisits(store: services.store), pages: services.pages, deepViews: services.deepViews,
            clicks: services.clicks, clock: { Int64(Clock.nowMilliseconds()) }, clients: services.clients,
            sourceHasher: services.sourceHasher, geoIP: services.geoIP, loops: services.configuration.loops,
            log: services.log)
    }

    /// The seams (issue 34 item 5): the store, the click recorder and the clock.
    init(
        store: any VisitStore, pages: Pages, deepViews: DeepViewCache, clicks: any ClickRecording,
        clock: @escaping @Sendable () -> Int64, clients: ClientAddressResolver, sourceHasher: SourceAddressHasher,
        geoIP: GeoIPLookup?, loops: Int, log: Log
    ) {
        self.store = store
        self.pages = pages
        self.deepViews = deepViews
        self.clicks = clicks
        self.clock = clock
        self.clients = clients
        self.sourceHasher = sourceHasher
        self.geoIP = geoIP
        self.visitors = PerLoop(count: loops) { VisitorCache() }
        self.preparedOptions = PerLoop(count: loops) { PreparedOptionsCache() }
        self.inAppIntents = PerLoop(count: loops) { InAppIntentCache() }
        self.writeFailures = LogThrottle("visit write failed", log: log)
    }

    func visit(_ request: HTTPRequest, _ context: inout RequestContext, domain: Domain, key: Substring)
        -> HTTPHandlerResult
    {
        answer(
            request, context, domain: domain, key: key, immediate: { .response($0) },
            afterWrite: { click, handoff, success, fallback in
                answerAfterWrite(&context, click, handoff, success: success, fallback: fallback)
            })
    }

    /// What the visit answers, the clicks no answer waits for recorded (the unit tests' view).
    func answer(_ request: HTTPRequest, _ context: RequestContext, domain: Domain, key: Substring) -> VisitAnswer {
        answer(
            request, context, domain: domain, key: key, immediate: { .now($0) },
            afterWrite: { .afterWrite(click: $0, handoff: $1, success: $2, fallback: $3) })
    }

    /// The answer handed to `immediate`, or to `afterWrite` with what must be durable first.
    /// Closures rather than a returned `VisitAnswer` on the serving path: the click and the
    /// handoff reach the write borrowed, not copied out of an enum (the guard's durable cases).
    private func answer<Result>(
        _ request: HTTPRequest, _ context: RequestContext, domain: Domain, key: Substring,
        immediate: (HTTPResponse) -> Result, afterWrite: AfterWrite<Result>
    ) -> Result {
        let loop = context.loopIndex
        guard LinkKey.isPossible(key) else { return immediate(notFound(domain, request)) }
        let found: Link?
        do {
            found = try store.link(host: domain.hostname, key: String(key), loop: loop)
        } catch {
            // Not in this loop's cache and the database is away: say "again shortly", not
            // "no such link" (a 404 would send the visitor to the domain's not-found URL).
            return immediate(
                pages.unavailable(
                    acceptLanguage: request.headers["accept-language"], retryAfterSeconds: VisitFlow.retryAfterSeconds))
        }
        guard let link = found else { return immediate(notFound(domain, request)) }
        guard link.enabled else {
            if let url = domain.notFoundUrl { return immediate(Self.redirect(url)) }
            return immediate(pages.linkDisabled(acceptLanguage: request.headers["accept-language"]))
        }
        let visitor = visitors.with(loop) {
            $0.classify(method: request.method.name, userAgent: request.headers["user-agent"])
        }
        let app = VisitPlanner.appToLoad(link: link, visitor: visitor).flatMap {
            (try? store.app($0, loop: loop)) ?? nil
        }
        let now = clock()
        // A link without options plans as before and reads nothing more (decision 0032);
        // only its domain's `passQuery` can still carry the visitor's query on.
        guard let options = link.options else {
            let plan = VisitPlanner.plan(
                link: link, app: app, domain: domain, visitor: visitor,
                inAppEscapes: inAppEscapes(visitor, link, loop: loop))
            let webURL =
                domain.passQuery
                ? WebDestination.compose(link.url, utm: nil, visitorQuery: request.query) : link.url
            return carryOut(
                plan, link: link, app: app, alternateHost: domain.alternateHostname, visitor: visitor, webURL: webURL,
                cookie: nil,
                country: .none, request, context, now: now, immediate, afterWrite)
        }
        // What every visit of this link computes alike, computed once per loop.
        let prepared = preparedOptions.with(loop) { $0.prepared(options, of: link) }
        // The country before the plan only when a rule names countries; else in the click.
        let country: String?? = prepared.namesCountries ? .some(self.country(request, context)) : .none
        let facts = VisitFacts(
            now: now,
            acceptLanguage: prepared.namesLanguages ? request.headers["accept-language"].map { $0[...] } : nil,
            country: country ?? nil,
            cookie: options.variants.isEmpty ? nil : request.headers["cookie"].map { $0[...] }, prepared: prepared,
            inAppEscapes: inAppEscapes(visitor, link, loop: loop))
        let plan = VisitPlanner.plan(
            link: link, app: app, domain: domain, visitor: visitor, facts: facts,
            roll: {
                var random = SystemRandomNumberGenerator()
                return random.next()
            })
        if case .expired = plan.answer {
            if let url = options.expiredUrl { return immediate(Self.redirect(url)) }
            return immediate(pages.linkExpired(acceptLanguage: request.headers["accept-language"]))
        }
        let webURL = prepared.destination(plan.web).with(
            visitorQuery: (options.passQuery ?? domain.passQuery) ? request.query : nil)
        var cookie: String?
        if plan.drewVariant, let arm = plan.variant {
            // `Secure` when the visit came over HTTPS, to this listener or to a trusted
            // proxy in front (`X-Forwarded-Proto`), as the console's cookies.
            cookie = prepared.setCookie(
                arm: arm,
                secure: clients.isHTTPS(peer: context.peerAddress, listener: context.listener, headers: request.headers)
            )
        }
        return carryOut(
            plan, link: link, app: app, alternateHost: domain.alternateHostname, visitor: visitor, webURL: webURL,
            cookie: cookie,
            country: country, request, context, now: now, immediate, afterWrite)
    }

    /// The escapes the operator allows this visit (decision 0033 §5): nil, read nothing,
    /// for a visitor outside an in-app browser, and nil (all allowed) when neither the link
    /// nor the workspace has switches. The workspace's come from the loop's snapshot.
    private func inAppEscapes(_ visitor: Visitor, _ link: Link, loop: Int) -> Set<InAppEscape>? {
        guard let tag = visitor.inAppBrowser else { return nil }
        let own = link.options?.inAppEscapes
        let workspace = store.inAppEscapes(loop: loop)
        if own == nil && workspace == nil { return nil }
        return InAppEscapeSwitches.allowed(tag: tag, link: own, workspace: workspace)
    }

    /// The plan carried out: the clicks recorded, the answer given. `webURL` is the web
    /// destination composed (the link's `url` for a link without options); `cookie`, a
    /// `Set-Cookie` for a variant drawn; `country`, the visitor's when already looked up.
    private func carryOut<Result>(
        _ plan: VisitPlan, link: Link, app: MobileApp?, alternateHost: String?, visitor: Visitor, webURL: String,
        cookie: String?,
        country: String??, _ request: HTTPRequest, _ context: RequestContext, now: Int64,
        _ immediate: (HTTPResponse) -> Result, _ afterWrite: AfterWrite<Result>
    ) -> Result {
        switch plan.answer {
        case .redirect(let target):
            if let planned = plan.click {
                let dynamic = link.mobile.map { DynamicValues.capture(query: request.query, allowed: $0.dynamicKeys) }
                let click = makeClick(
                    planned, link, visitor, dynamic ?? [], request, context, now: now, variant: plan.variant,
                    country: country)
                if plan.carriesClickId { return trackedVisit(click, webURL: webURL, cookie: cookie, afterWrite) }
                // Nothing in this answer depends on the click being stored: do not wait for it.
                clicks.record(click, loop: context.loopIndex)
            }
            return immediate(Self.redirect(target.location(webURL: webURL, app: app), cookie: cookie))
        case .preview(let pageFallback):
            clicks.recordPreview(appId: link.mobile?.appId, linkId: link.id, at: now, loop: context.loopIndex)
            guard let model = LinkPreviewModel(link: link, app: app) else {
                return immediate(Self.redirect(pageFallback.location(webURL: webURL, app: app)))
            }
            return immediate(pages.linkPreview(model, acceptLanguage: request.headers["accept-language"]))
        case .playStore, .playIntent, .appIntent, .deepView:
            return durableVisit(
                plan, link: link, app: app, alternateHost: alternateHost, visitor: visitor, webURL: webURL,
                country: country,
                request, context, now: now, immediate, afterWrite)
        case .expired:
            // Planned only for a link with options, answered before.
            return immediate(Self.redirect(link.options?.expiredUrl ?? webURL))
        }
    }

    /// An answer that carries a handoff token: the click and the handoff are written in one
    /// transaction, and the answer waits until they are durable (decision 0003).
    private func durableVisit<Result>(
        _ plan: VisitPlan, link: Link, app: MobileApp?, alternateHost: String?, visitor: Visitor, webURL: String,
        country: String??,
        _ request: HTTPRequest, _ context: RequestContext, now: Int64, _ immediate: (HTTPResponse) -> Result,
        _ afterWrite: AfterWrite<Result>
    ) -> Result {
        // The plan gives a handoff only with a click, an app and a mobile payload.
        guard let planned = plan.click, let platform = plan.handoff, let app,
            let dynamicKeys = link.mobile?.dynamicKeys
        else { return immediate(Self.redirect(webURL)) }
        let dynamic = DynamicValues.capture(query: request.query, allowed: dynamicKeys)
        let click = makeClick(planned, link, visitor, dynamic, request, context, now: now, country: country)
        let token = HandoffToken.generate(milliseconds: UInt64(max(now, 0)))
        guard let snapshot = HandoffSnapshotBuilder.snapshot(link: link, dynamic: dynamic) else {
            return immediate(Self.redirect(webURL))
        }
        let handoff = HandoffSnapshotBuilder.handoff(
            token: token, clickId: click.id, app: app, platform: platform, snapshot: snapshot, now: now)

        // Render before writing: a link whose page cannot be built falls back without a handoff.
        let success: HTTPResponse
        let writeFallback: VisitTarget
        switch plan.answer {
        case .playStore(let fallback):
            guard let android = app.android else { return immediate(Self.redirect(webURL)) }
            success = Self.redirect(PlayReferrer.url(app: android, token: token))
            writeFallback = fallback
        case .playIntent(let fallback), .appIntent(let fallback):
            // An in-app web view (decision 0033): the Play Store app's intent with the same
            // referrer, behind the app's own intent with the short link when planned so.
            guard let android = app.android else { return immediate(Self.redirect(webURL)) }
            var kind = InAppIntentTemplate.Kind.playIntent
            if case .appIntent = plan.answer { kind = .appIntent }
            // Built once per app and loop, the token filled in (`InAppIntentTemplate`).
            let template = inAppIntents.with(context.loopIndex) { $0.template(android, kind: kind) }
            let location =
                template.location(token: token, host: link.domain, target: request.target)
                ?? Self.inAppIntent(kind, android, token: token, host: link.domain, target: request.target)
            success = Self.redirect(location)
            writeFallback = fallback
        case .deepView(let pageFallback, let fallback, let inApp):
            let page: HTTPResponse?
            if let inApp {
                // In an app's own browser (decision 0033 §4): its links carry this visit's
                // query, so the page is rendered for the visit, not filled from a template.
                page = DeepViewModel(app: app, link: link, handoffToken: token).map { model in
                    var model = model
                    model.inApp = InAppDeepViewPart.make(
                        inApp, tag: visitor.inAppBrowser, host: link.domain, alternateHost: alternateHost,
                        target: request.target)
                    return pages.deepView(model, acceptLanguage: request.headers["accept-language"])
                }
            } else {
                page = deepViews.page(
                    app: app, link: link, token: token, nonce: CSPNonce.fresh(),
                    acceptLanguage: request.headers["accept-language"], loop: context.loopIndex)
            }
            guard let page else {
                return immediate(Self.redirect(pageFallback.location(webURL: webURL, app: app)))
            }
            success = page
            writeFallback = fallback
        case .redirect, .preview, .expired:
            return immediate(Self.redirect(webURL))
        }
        // When the write fails the visitor still reaches the store; only this install's
        // attribution is lost.
        return afterWrite(click, handoff, success, { Self.redirect(writeFallback.location(webURL: webURL, app: app)) })
    }

    /// A web redirect with conversion tracking: the destination gets the click's id as
    /// `bq_id`, so the answer waits until the click is durable (decision 0003's rule for
    /// handoff tokens: an id the store does not know would lose the lead later). When the
    /// write fails the visitor still reaches the destination, without an id.
    private func trackedVisit<Result>(
        _ click: Click, webURL: String, cookie: String?, _ afterWrite: AfterWrite<Result>
    ) -> Result {
        afterWrite(
            click, nil, Self.redirect(ClickIdParameter.append(to: webURL, clickId: click.id), cookie: cookie),
            { Self.redirect(webURL, cookie: cookie) })
    }

    /// Writes `click` (and `handoff`) through the store's group commit and answers
    /// `success` once they are durable; when the write fails, logs it (throttled) and
    /// answers `fallback()`: the visitor always goes on (decision 0011).
    private func answerAfterWrite(
        _ context: inout RequestContext, _ click: consuming Click, _ handoff: consuming Handoff?,
        success: consuming HTTPResponse,
        fallback: @escaping @Sendable () -> HTTPResponse
    ) -> HTTPHandlerResult {
        let responder = context.deferResponse()
        let writeFailures = self.writeFailures
        let success = consume success
        store.write(
            consume click, handoff: consume handoff,
            completion: { result in
                switch result {
                case .success:
                    responder.respond(success)
                case .failure(let error):
                    writeFailures.write { [("detail", .string("\(error)"))] }
                    responder.respond(fallback())
                }
            })
        return .deferred
    }

    func makeClick(
        _ planned: PlannedClick, _ link: Link, _ visitor: Visitor, _ dynamic: [(String, String)],
        _ request: HTTPRequest, _ context: RequestContext, now: Int64, keepReferrer: Bool = true,
        variant: Int? = nil, country known: String?? = .none
    ) -> Click {
        var sourceHash: [UInt8]?
        var country: String? = known ?? nil
        // The client's address (through trusted proxies) only when something uses it; it
        // leaves as a keyed hash and a country code, never as itself.
        // Behind a proxy that named no client, the address is the proxy's: hashing it would
        // make every such click a candidate for every open, so nothing is kept.
        if planned.sourceHash || geoIP != nil {
            let client = clients.client(context, request.headers)
            if client.known {
                if planned.sourceHash { sourceHash = sourceHasher.hash(client.address) }
                if case .none = known { country = geoIP?.country(of: client.address, loop: context.loopIndex) }
            }
        }
        return Click(
            id: clicks.newId(at: now, loop: context.loopIndex), linkId: link.id,
            appId: link.mobile?.appId, domain: link.domain, at: now, kind: planned.kind, platform: planned.platform,
            inAppBrowser: visitor.inAppBrowser, dynamic: dynamic, sourceHash: sourceHash, osVersion: visitor.osVersion,
            country: country, referrer: keepReferrer ? ReferringSite.host(request.headers["referer"]) : nil,
            variant: variant)
    }

    /// The visitor's country (GeoIP), when the client's address is known: a link whose
    /// rules name countries needs it before the plan.
    func country(_ request: HTTPRequest, _ context: RequestContext) -> String? {
        guard let geoIP else { return nil }
        let client = clients.client(context, request.headers)
        return client.known ? geoIP.country(of: client.address, loop: context.loopIndex) : nil
    }

    func notFound(_ domain: Domain?, _ request: HTTPRequest) -> HTTPResponse {
        if let url = domain?.notFoundUrl { return Self.redirect(url) }
        return pages.notFound(acceptLanguage: request.headers["accept-language"])
    }

    /// `HTTPResponse.redirect(302, to:)` plus `Referrer-Policy`.
    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse.redirect(302, to: location, extra: referrerPolicy)
    }

    /// A redirect that also sets the variant's cookie when one was drawn.
    static func redirect(_ location: String, cookie: String?) -> HTTPResponse {
        guard let cookie else { return redirect(location) }
        return HTTPResponse.redirect(
            302, to: location, extra: [referrerPolicy[0], ("Set-Cookie", cookie)])
    }

    /// The in-app intent built afresh (`InAppIntentTemplate` fills a prepared one).
    static func inAppIntent(
        _ kind: InAppIntentTemplate.Kind, _ android: AndroidPlatform, token: String, host: String, target: String
    ) -> String {
        let playIntent = PlayStoreIntent.url(app: android, token: token)
        guard kind == .appIntent else { return playIntent }
        return
            (try? AppIntent.url(
                link: "https://" + host + target, packageName: android.packageName, fallbackURL: playIntent))
            ?? playIntent
    }

    /// Seconds a visitor's browser is told to wait when the link cannot be read for now.
    static let retryAfterSeconds = 5

    /// Where a visit is sent learns nothing of the short link or its query.
    static let referrerPolicy = [("Referrer-Policy", "no-referrer")]
}
