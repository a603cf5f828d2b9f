import Core
import HTTPMessages
import Model
import Store

/// What `track/click`'s checks read: the browser keys and settings, the domain, the link.
public typealias ClickCheckReading = ClientClickReading & CatalogReading & LinkReading

/// `POST /api/v1/track/click` and its CORS preflight: client-side click tracking
/// (issue 25 item 3, decision 0027). The browser script (`analytics-v3.js`, or v2) on a
/// customer's page calls it with a workspace browser key when the page was reached
/// through the customer's own URL with a query value (`https://shop.example.com/?via=BOB`);
/// the edge records a click of the link `https://<domain>/BOB`, durable before the
/// answer, and answers its id, which the script keeps as the `bq_id` cookie.
///
/// Everything up to the click is decided here, on the event loop, from the loop's store
/// reader, in this order: the address's limit, the key, `Origin` and the workspace's
/// settings, the key's limit, the body, the link. The
/// click itself is the edge's (`ClientClickFlow`: the visitor's classification, its
/// address's hash and country, the click id sequence, the write), which then answers
/// with `recorded` or `failed`. Every answer is the API's JSON envelope with
/// `X-Biq-Request-Id` and `Cache-Control: no-store`; an answer to a request with a
/// well-formed `Origin` carries CORS headers that let the page read it, errors included.
public final class ClientClickAPI: Sendable {
    public static let path = "/api/v1/track/click"

    /// A rate limit: nil to go on, else the seconds to wait.
    public typealias Limit = @Sendable (String) -> Int?

    /// Per client address (the edge's caller names an IPv6 address by its /64), taken
    /// before anything else (cheapest defence).
    let limitAddress: Limit?
    /// Per browser key (by its id), taken once the key is known and the call's `Origin`
    /// is one the workspace allows: a call from anywhere else must not spend the quota
    /// of the pages that use the key (issue 33 item 7).
    let limitKey: Limit?
    /// The operational log, for a failure the caller only sees as `internal_server_error`
    /// (with the call's request id).
    let log: Logger

    public init(limitAddress: Limit?, limitKey: Limit?, log: Logger) {
        self.limitAddress = limitAddress
        self.limitKey = limitKey
        self.log = log
    }

    /// A call that passed every check: the click to record.
    public struct Pending: Sendable {
        public let link: Link
        /// The link's dynamic values from the landing page's query values: all the edge
        /// keeps of the page's address (the rest of a `url` is read for them and dropped).
        public let dynamicValues: [(String, String)]
        let origin: String?
        let requestId: String
    }

    public enum Prepared: Sendable {
        case answer(HTTPResponse)
        case record(Pending)
    }

    /// Everything before the click. `clientAddress`: the caller's, as the edge knows it
    /// (through trusted proxies), for its rate limit.
    public func prepare(_ request: HTTPRequest, reader: any ClickCheckReading, clientAddress: String) -> Prepared {
        let callerIds = request.headers.values("x-biq-request-id")
        let requestId = ManagementAPI.requestId(callerIds.count == 1 ? callerIds[0] : nil)
        let origin = Self.origin(request.headers)
        do {
            switch request.method {
            case .options:
                return .answer(try preflight(request, reader: reader, requestId: requestId))
            case .post:
                return .record(try check(request, reader: reader, clientAddress: clientAddress, requestId: requestId))
            default:
                throw ManagementError.methodNotAllowed(["OPTIONS", "POST"])
            }
        } catch {
            return .answer(failed(error, requestId: requestId, origin: request.method == .options ? nil : origin))
        }
    }

    /// The answer once the click is durable; `clickId` nil when the caller makes no click
    /// (a bot's or a crawler's rendering: as on a visit, they are not people).
    public func recorded(_ pending: Pending, clickId: String?) -> HTTPResponse {
        let link = pending.link
        let body: JSONValue = .object([
            ("clickId", clickId.map { .string($0) } ?? .null),
            (
                "link",
                .object([
                    ("id", .string(link.id)), ("domain", .string(link.domain)), ("key", .string(link.key)),
                    ("shortUrl", .string("https://\(link.domain)/\(link.key)")),
                ])
            ),
            ("request_id", .string(pending.requestId)),
        ])
        return Self.json(200, body, requestId: pending.requestId, origin: pending.origin)
    }

    /// The answer when the click could not be written (500, with `Retry-After` when the
    /// store is away for a moment).
    public func failed(_ pending: Pending, error: any Error) -> HTTPResponse {
        failed(error, requestId: pending.requestId, origin: pending.origin)
    }

    // MARK: the checks

    private func preflight(_ request: HTTPRequest, reader: any ClickCheckReading, requestId: String) throws
        -> HTTPResponse
    {
        let origin = try requiredOrigin(request.headers)
        if let why = CORSPreflight.problem(
            requestMethod: request.headers.values("access-control-request-method"),
            requestHeaders: request.headers.values("access-control-request-headers"))
        {
            throw ManagementError.invalidPreflight(why)
        }
        try allow(origin, reader.clientClickSettings())
        var headers = HTTPHeaders()
        headers.add("Access-Control-Allow-Origin", origin)
        headers.add("Access-Control-Allow-Methods", "POST")
        headers.add("Access-Control-Allow-Headers", "Authorization, Content-Type")
        headers.add("Access-Control-Max-Age", String(CORSPreflight.maxAgeSeconds))
        headers.add("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Biq-Request-Id", requestId)
        return HTTPResponse(status: 204, headers: headers, body: [])
    }

    private func check(_ request: HTTPRequest, reader: any ClickCheckReading, clientAddress: String, requestId: String)
        throws -> Pending
    {
        if let wait = limitAddress?(clientAddress) { throw ManagementError.rateLimited(retryAfterSeconds: wait) }
        // The key first, as on every route of the API: a call without one is 401 whatever else it lacks.
        let authorization = request.headers.values("authorization")
        let token = authorization.count == 1 ? ManagementAuth.bearer(authorization[0]) : nil
        guard let key = try BrowserKeys.authenticate(token, reader: reader) else {
            throw ManagementError.invalidBrowserKey
        }
        let origin = try requiredOrigin(request.headers)
        try allow(origin, reader.clientClickSettings())
        if let wait = limitKey?(key.id) { throw ManagementError.rateLimited(retryAfterSeconds: wait) }
        try ManagementAPI.checkRequestId(request.headers.values("x-biq-request-id"))
        guard let members = try RequestBody.parse(request) else { throw ManagementError.malformed(RequestBody.missing) }
        let input = try ClientClickRequest.decode(.object(members))
        guard let domain = try reader.domain(input.domain),
            let link = try reader.link(host: input.domain, key: input.key), link.enabled
        else {
            throw ManagementError.notFound("No active link https://\(input.domain)/\(input.key).")
        }
        guard link.tracksConversions(on: domain) else {
            throw ManagementError.clientClickTrackingDisabled(
                "The link https://\(link.domain)/\(link.key) does not track conversions: set trackConversions on the link or its domain."
            )
        }
        let dynamic = link.mobile.map { DynamicValues.capture(query: input.landingQuery, allowed: $0.dynamicKeys) }
        return Pending(link: link, dynamicValues: dynamic ?? [], origin: origin, requestId: requestId)
    }

    /// The workspace's settings let `origin` in, or the refusal that says why not.
    private func allow(_ origin: String, _ settings: ClientClickSettings) throws(ManagementError) {
        guard settings.enabled else {
            throw .clientClickTrackingDisabled(
                "Client-side click tracking is off for this workspace (PATCH /api/v1/client-click-tracking {\"enabled\": true})."
            )
        }
        guard !settings.hostnames.isEmpty else { throw .hostnameNotConfigured }
        guard let host = AllowedHostnames.originHost(origin), AllowedHostnames.allows(host, settings.hostnames) else {
            throw .originNotAllowed(origin)
        }
    }

    private func requiredOrigin(_ headers: HTTPHeaders) throws(ManagementError) -> String {
        let values = headers.values("origin")
        guard let first = values.first else { throw .originRequired }
        guard values.count == 1 else { throw .originNotAllowed("(several Origin headers)") }
        return first
    }

    /// The request's `Origin` when it is one well-formed origin: what an answer's CORS
    /// headers echo (`null`, garbage or several values get none).
    static func origin(_ headers: HTTPHeaders) -> String? {
        let values = headers.values("origin")
        guard values.count == 1, AllowedHostnames.originHost(values[0]) != nil else { return nil }
        return values[0]
    }

    private func failed(_ error: any Error, requestId: String, origin: String?) -> HTTPResponse {
        let failure: ManagementError
        if let known = ManagementError(answering: error) {
            failure = known
        } else {
            log.with(requestId: requestId).error("track/click failed", [("detail", .string("\(error)"))])
            failure = .internalError
        }
        var extra: [(String, String)] = []
        switch failure {
        case .methodNotAllowed(let allowed): extra.append(("Allow", allowed.joined(separator: ", ")))
        case .invalidBrowserKey: extra.append(("WWW-Authenticate", "Bearer realm=\"biqli-edge\""))
        case .rateLimited(let seconds): extra.append(("Retry-After", String(seconds)))
        default: break
        }
        if case .internalError = failure, (error as? StoreError)?.isTransient == true {
            extra.append(("Retry-After", String(ManagementAPI.storeRetryAfterSeconds)))
        }
        return Self.json(
            failure.status, failure.body(requestId: requestId), requestId: requestId, origin: origin, extra)
    }

    /// JSON with the API's headers, and CORS for a page at `origin`: no credentials (the
    /// call sends none), so echoing the origin lets that page read the answer and nothing
    /// more. `Vary: Origin` always, since the answer's headers depend on it.
    static func json(
        _ status: Int, _ body: JSONValue, requestId: String, origin: String?, _ extra: [(String, String)] = []
    ) -> HTTPResponse {
        var headers: [(String, String)] = extra
        if let origin {
            headers.append(("Access-Control-Allow-Origin", origin))
            headers.append(("Access-Control-Expose-Headers", "X-Biq-Request-Id, Retry-After"))
        }
        headers.append(("Vary", "Origin"))
        return ManagementAPI.json(status, body, requestId: requestId, extra: headers)
    }
}
