import Core

/// One rendered association file, ready to cache and serve.
///
/// The edge keeps one per (host, kind), rebuilt when an app or domain changes, and
/// serves the same bytes to every client (Apple's CDN fetches as `AASA-Bot`,
/// devices as `swcd`): no per-request work beyond the `If-None-Match` check.
public struct AssociationDocument: Sendable, Equatable {
    /// Apple refuses files larger than this; the same bound applies to assetlinks.
    public static let maxBytes = 128 * 1024
    /// Short, because Apple's CDN cannot be flushed; it refreshes within about a day anyway.
    public static let cacheControl = "public, max-age=3600"
    public static let contentType = "application/json"

    public let kind: AssociationDocumentKind
    /// Compact JSON, UTF-8, no trailing newline.
    public let body: [UInt8]
    /// A strong entity tag, quoted: the first 128 bits of the body's SHA-256 in base64url.
    /// Equal bodies give equal tags on every edge process.
    public let etag: String

    public init(kind: AssociationDocumentKind, body: [UInt8]) {
        self.kind = kind
        self.body = body
        self.etag = AssociationDocument.etag(for: body)
    }

    /// `"` + base64url(SHA-256(body)[0..<16]) + `"` (24 characters).
    public static func etag(for body: [UInt8]) -> String {
        "\"" + Base64URL.encode(SHA256.hash(body).prefix(16)) + "\""
    }

    /// Whether the body is within `maxBytes`.
    public var isWithinSizeLimit: Bool { body.count <= AssociationDocument.maxBytes }

    /// The representation headers of a 200, a HEAD and a 304 alike (`Content-Length` is
    /// the transport's job). No `Vary`: the answer never depends on the request.
    public var headers: [(name: String, value: String)] {
        [
            (name: "Content-Type", value: AssociationDocument.contentType),
            (name: "Cache-Control", value: AssociationDocument.cacheControl),
            (name: "ETag", value: etag),
        ]
    }

    /// True when the request's `If-None-Match` field values (each a comma-separated list)
    /// name this document, so that the edge answers 304 Not Modified.
    public func matches(ifNoneMatch values: [String]) -> Bool {
        values.contains { EntityTagList.matches($0, etag: etag) }
    }

    /// Single-field form of `matches(ifNoneMatch:)`; nil (no header) never matches.
    public func matches(ifNoneMatch value: String?) -> Bool {
        guard let value else { return false }
        return EntityTagList.matches(value, etag: etag)
    }
}
