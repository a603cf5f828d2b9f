import Core
import HTTPMessages
import Model
import Store

/// The workspace API: its operations (`ManagementRoutesTable`), which the edge's router
/// adds below `/api/v1/`, and the steps of answering one: authorize it, read its query and
/// body, and answer it, on the event loop for reads and through the store's writer for
/// writes.
///
/// Every answer, error or not, is JSON with `Cache-Control: no-store` and
/// `X-Biq-Request-Id` (the caller's when it is 8 to 100 safe characters, else
/// `req_` + 32 hex digits; a caller's id that breaks that rule is refused with 400).
public final class ManagementAPI: Sendable {
    let store: any Store
    let environment: ManagementEnvironment
    let routes: [ManagementRoute]

    public convenience init(store: any Store, environment: ManagementEnvironment) {
        self.init(store: store, environment: environment, routes: ManagementRoutesTable.all)
    }

    init(store: any Store, environment: ManagementEnvironment, routes: [ManagementRoute]) {
        self.store = store
        self.environment = environment
        self.routes = routes
    }

    /// A write waiting for the store's writer.
    public struct PendingWrite: Sendable {
        let call: ManagementCall
        let operation: ManagementRoute.Write
        /// The operation keeps its own idempotency (conversions): no management record.
        var ownIdempotency = false
        /// The request's logger: a failure of the write is logged with its request id.
        var log: Logger
    }

    public enum Prepared: Sendable {
        /// The answer, ready now.
        case answer(HTTPResponse)
        /// A write: answered by `perform`, once the store's writer has run it.
        case write(PendingWrite)
    }

    /// The operations the edge's router adds below `/api/v1` (one route each, named by its
    /// operation id), in the table's order: the order `Allow` lists a path's methods in.
    public var operations: [ManagementOperation] { routes.map(ManagementOperation.init) }

    /// The whole table's operations (what the OpenAPI document describes).
    public static var allOperations: [ManagementOperation] { ManagementRoutesTable.all.map(ManagementOperation.init) }

    /// A request's id before its route is known: the caller's `X-Biq-Request-Id` when it
    /// is one valid value, else a new one (a refused id is answered with a new one).
    public static func requestId(_ headers: HTTPHeaders) -> String {
        let callerIds = headers.values("x-biq-request-id")
        return requestId(callerIds.count == 1 ? callerIds[0] : nil)
    }

    /// The 404 of a path below `/api/v1` that no operation takes, in the API's envelope.
    public func notFound(_ request: HTTPRequest, requestId: String) -> HTTPResponse {
        errorResponse(
            ManagementError.notFound(
                "No route \(request.method.name) \(request.path); the routes are listed at /api/v1/openapi.json."),
            requestId: requestId)
    }

    /// The 405 of a method the operations of a path do not take (`allowed`: theirs, HEAD
    /// after them when GET is one), in the API's envelope with `Allow`.
    public func methodNotAllowed(_ allowed: [HTTPMethod], requestId: String) -> HTTPResponse {
        errorResponse(ManagementError.methodNotAllowed(allowed.map(\.name)), requestId: requestId)
    }

    /// Who may run `operation`, or the refusal: the request id's rule (the server SDK's
    /// for conversions, which may keep the caller's id: `requestId`), the secret key and
    /// its scope unless the operation is public, and the per-key limit of conversions.
    public func authorize(
        _ operation: ManagementOperation, _ request: HTTPRequest, reader: any StoreReader, requestId: inout String,
        log: Logger? = nil
    ) -> ManagementAuthorization {
        let route = operation.route
        let callerIds = request.headers.values("x-biq-request-id")
        do {
            if route.isConversion {
                // The server SDK's rule: `:` allowed, 1 to 100 characters.
                if callerIds.count == 1, ConversionHeaders.isValidRequestId(callerIds[0]) { requestId = callerIds[0] }
                try ConversionHeaders.checkRequestId(callerIds)
            } else {
                try Self.checkRequestId(callerIds)
            }
            guard !route.isPublic else { return .key(ManagementKey(id: "", scopes: nil)) }
            let record = try ManagementAuth.authenticate(request.headers, reader: reader)
            if let scope = route.scope, !record.allows(scope) { throw ManagementError.insufficientScope(scope) }
            // The server SDK's calls are limited per key (decision 0027); the SDK honours Retry-After.
            if route.isConversion, let wait = environment.limitConversion?(record.id) {
                throw ManagementError.rateLimited(retryAfterSeconds: wait)
            }
            return .key(ManagementKey(id: record.id, scopes: record.scopes))
        } catch {
            return .refused(errorResponse(error, requestId: requestId, log: log))
        }
    }

    /// Everything after routing and authorization that can be done on the loop: the query,
    /// the body, and reads (through `reader`, the calling loop's). `parameters`: the path's,
    /// percent-decoded.
    public func prepare(
        _ operation: ManagementOperation, _ request: HTTPRequest, parameters: [(String, String)],
        key: ManagementKey, requestId: String, reader: any StoreReader, log: Logger? = nil
    ) -> Prepared {
        let log = log ?? environment.log
        let route = operation.route
        do {
            let query = try QueryParameters(request.query)
            try query.requireOnly(route.query)
            var call = ManagementCall(
                method: route.method, path: String(request.path),
                parameters: Dictionary(parameters, uniquingKeysWith: { first, _ in first }), query: query, body: nil,
                requestId: requestId, secretKeyId: key.id, keyScopes: key.scopes, idempotencyKey: nil,
                now: environment.now())
            switch route.handler {
            case .read(let operation):
                return .answer(response(try operation(call, reader, environment), requestId: requestId))
            case .write(let operation):
                call.body = try RequestBody.parse(request)
                if route.requiresBody && call.body == nil {
                    throw ManagementError.malformed(RequestBody.missing)
                }
                if route.isConversion {
                    call.idempotencyKey = try ConversionHeaders.idempotencyKey(
                        request.headers.values("idempotency-key"))
                } else {
                    call.idempotencyKey = try Self.idempotencyKey(request.headers.values("idempotency-key"))
                }
                return .write(
                    PendingWrite(call: call, operation: operation, ownIdempotency: route.isConversion, log: log))
            case .edge:
                // The edge's own route answers these paths; the router never adds them.
                throw ManagementError.notFound("No route \(request.method.name) \(request.path).")
            }
        } catch {
            return .answer(errorResponse(error, requestId: requestId, log: log))
        }
    }

    /// Runs a write on the store's writer; `respond` is called once, on the writer thread.
    /// A `ManagementError` thrown by the operation is its refusal: the store rolls back
    /// this request's work only and hands the error back typed. Leads and sales (their own
    /// idempotency, kept by unique keys; no catalog row) may run on the store's concurrent
    /// writers, as two edges would run them (decision 0024).
    public func perform(_ write: PendingWrite, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let call = write.call
        let environment = self.environment
        let completion: @Sendable (Result<ManagementAnswer, WriteError<ManagementError>>) -> Void = {
            [self] result in
            switch result {
            case .success(let answer):
                respond(response(answer, requestId: call.requestId))
            case .failure(.refused(let error)):
                respond(errorResponse(error, requestId: call.requestId, log: write.log))
            case .failure(.store(let error)):
                respond(errorResponse(error, requestId: call.requestId, log: write.log))
            }
        }
        if write.ownIdempotency {
            store.writeConcurrently(
                refusing: ManagementError.self, lockOrder: ConversionOperations.lockOrder(call),
                { tx in try write.operation(call, tx, environment) }, completion: completion)
            return
        }
        store.write(
            refusing: ManagementError.self,
            { tx in try ManagementIdempotency.run(call, tx) { try write.operation(call, tx, environment) } },
            completion: completion)
    }

    // MARK: answers

    func response(_ answer: ManagementAnswer, requestId: String) -> HTTPResponse {
        if let media = answer.media {
            var headers = HTTPHeaders()
            headers.add("Content-Type", media.contentType)
            headers.add("Cache-Control", media.cacheControl)
            headers.add("X-Biq-Request-Id", requestId)
            if let name = media.filename { headers.add("Content-Disposition", "inline; filename=\"\(name)\"") }
            return HTTPResponse(status: answer.status, headers: headers, body: media.bytes)
        }
        var extra: [(String, String)] = []
        if answer.replayed { extra.append(("Idempotent-Replayed", "true")) }
        return Self.json(answer.status, answer.body, requestId: requestId, extra: extra)
    }

    /// `log`: the request's logger (default: the API's); its lines carry `requestId`.
    func errorResponse(_ error: any Error, requestId: String, log: Logger? = nil) -> HTTPResponse {
        // The answer's id, which a conversion may have taken from its caller after the logger was made.
        let failure = map(error, log: (log ?? environment.log).with(requestId: requestId))
        var extra: [(String, String)] = []
        switch failure {
        case .methodNotAllowed(let allowed): extra.append(("Allow", allowed.joined(separator: ", ")))
        case .invalidToken, .invalidBrowserKey: extra.append(("WWW-Authenticate", "Bearer realm=\"biqli-edge\""))
        case .rateLimited(let seconds), .webhookTestLimited(let seconds): extra.append(("Retry-After", String(seconds)))
        default: break
        }
        // The store away for a moment (PostgreSQL restarting, a lock held elsewhere): the
        // same 500 envelope, and when to try again.
        if case .internalError = failure, (error as? StoreError)?.isTransient == true {
            extra.append(("Retry-After", String(ManagementAPI.storeRetryAfterSeconds)))
        }
        return Self.json(failure.status, failure.body(requestId: requestId), requestId: requestId, extra: extra)
    }

    /// Seconds a client is told to wait when the store is away for a moment.
    static let storeRetryAfterSeconds = 2

    /// Store failures the client can act on become their codes; the rest is logged and
    /// answered as `internal_server_error` without detail.
    func map(_ error: any Error, log: Logger) -> ManagementError {
        if let known = ManagementError(answering: error) { return known }
        log.error("management request failed", [("detail", .string("\(error)"))])
        return .internalError
    }

    /// JSON with `Cache-Control: no-store` and the request id.
    static func json(_ status: Int, _ body: JSONValue, requestId: String, extra: [(String, String)] = [])
        -> HTTPResponse
    {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Biq-Request-Id", requestId)
        for (n, v) in extra { headers.add(n, v) }
        return HTTPResponse(status: status, headers: headers, body: body.jsonBytes)
    }

    /// The one-header rule of `X-Biq-Request-Id` and `Idempotency-Key` (from the seed):
    /// 8 to 100 of `A-Z a-z 0-9 . _ ~ -`.
    static let headerTokenRule = "must be 8 to 100 of A-Z a-z 0-9 . _ ~ -"

    /// A caller's `X-Biq-Request-Id` is echoed in the answer and the logs, so one that
    /// breaks the rule, or comes twice, is refused (400 naming the header) rather than
    /// silently replaced: the caller would otherwise look for an id that never existed.
    static func checkRequestId(_ values: [String]) throws(ManagementError) {
        guard let value = values.first else { return }
        guard values.count == 1 else { throw .malformed(FieldProblem("X-Biq-Request-Id", "must appear once")) }
        guard ManagementIdempotency.isValidKey(value) else {
            throw .malformed(FieldProblem("X-Biq-Request-Id", headerTokenRule))
        }
    }

    /// The write's `Idempotency-Key`, nil when absent; 400 when malformed or repeated.
    static func idempotencyKey(_ values: [String]) throws(ManagementError) -> String? {
        guard let value = values.first else { return nil }
        guard values.count == 1 else { throw .malformed(FieldProblem("Idempotency-Key", "must appear once")) }
        guard ManagementIdempotency.isValidKey(value) else {
            throw .malformed(FieldProblem("Idempotency-Key", headerTokenRule))
        }
        return value
    }

    /// The caller's id when it is valid, else `req_` + 32 hex digits.
    static func requestId(_ incoming: String?) -> String {
        if let v = incoming, ManagementIdempotency.isValidKey(v) { return v }
        var rng = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out = Array("req_".utf8)
        for _ in 0..<32 { out.append(digits[Int(rng.next(upperBound: UInt8(16)))]) }
        return String(decoding: out, as: UTF8.self)
    }
}
