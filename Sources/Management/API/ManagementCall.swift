import Core
import HTTPMessages
import Model

/// One authenticated, parsed workspace-API request, as an operation sees it.
struct ManagementCall: Sendable {
    var method: HTTPMethod
    /// The path without the query, as sent (`/api/v1/links/biq_lnk_...`).
    var path: String
    /// Path parameters (`{hostname}`, `{id}`), percent-decoded.
    var parameters: [String: String]
    var query: QueryParameters
    /// The JSON body's members; nil when the request had no body.
    var body: [(String, JSONValue)]?
    var requestId: String
    /// The workspace secret key that authenticated the request (empty on public routes).
    var secretKeyId: String
    /// That key's scopes; nil when it holds every one (a key made without `--scope`, or a
    /// public route).
    var keyScopes: [KeyScope]? = nil
    var idempotencyKey: String?
    var now: Int64

    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The body as an object (`{}` when there was none).
    var bodyObject: JSONValue { .object(body ?? []) }
}

/// What an operation answers: a status and a JSON body, or for the few reads that
/// answer something else (a link's QR code), `media`.
struct ManagementAnswer: Sendable {
    var status: Int
    var body: JSONValue
    /// Sent instead of `body` (reads only: idempotent writes store JSON).
    var media: Media?
    /// What an idempotent replay answers instead, when the body shows something only
    /// once (a new publishable key): never stored in clear.
    var replayBody: JSONValue?
    /// True when this is a stored answer replayed for the same `Idempotency-Key`.
    var replayed = false

    init(_ status: Int, _ body: JSONValue, replayBody: JSONValue? = nil) {
        self.status = status
        self.body = body
        self.replayBody = replayBody
    }

    init(_ status: Int, media: Media) {
        self.init(status, .null)
        self.media = media
    }

    /// A body that is not JSON, with the headers that describe it.
    struct Media: Sendable {
        var contentType: String
        var bytes: [UInt8]
        /// Instead of the API's `no-store`: what may keep it, and for how long.
        var cacheControl: String
        /// `Content-Disposition: inline; filename="..."` (the name a browser saves it under).
        var filename: String?
    }
}
