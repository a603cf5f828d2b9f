/// The canonical form of a validated request, whose SHA-256 decides whether a
/// reused eventId or Idempotency-Key is a replay (equal) or a conflict.
///
/// - Built from the *validated* request, never from raw bytes: key order, `\/`
///   escapes, omitted-versus-null, `""` versus null for the version strings, and
///   `occurredAt` with or without fractional seconds or offset all vanish.
/// - Includes the SHA-256 of the Idempotency-Key: the seed says to persist the
///   event ID, key and body together, so a retry that regenerated the key is a
///   different request.
/// - Excludes the request ID (contract obligation 8), the SDK headers (they must
///   equal `platform` and `sdkVersion`, which are in), the bearer key (a retry from
///   an update shipping the rotated key is the same request) and `attestation`
///   (reserved and ignored; a future attestation is fresh on every attempt).
/// - Carries the handoff token's digest rather than the token.
enum CanonicalRequest {
    static let version: Int64 = 1

    /// Compact JSON with the members in sorted key order (RFC 8785-style for
    /// this fixed set of keys): equal for equal requests, whatever their shape.
    static func bytes(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        var j = JSONBuffer(capacity: 640)
        j.raw("{")
        j.key("appId")
        j.string(r.appId)
        j.comma()
        j.key("appInstanceId")
        j.string(r.appInstanceId)
        j.comma()
        j.key("appVersion")
        j.string(orNull: r.appVersion)
        j.comma()
        j.key("deepLink")
        j.string(orNull: r.deepLink)
        j.comma()
        j.key("domain")
        j.string(orNull: r.domain)
        j.comma()
        j.key("eventId")
        j.string(r.eventId)
        j.comma()
        j.key("firstOpen")
        j.bool(r.firstOpen)
        j.comma()
        j.key("handoffToken")
        j.string(orNull: tokenHash.map(Hex.encode))
        j.comma()
        j.key("idempotencyKey")
        j.string(Hex.encode(idempotencyKeyHash))
        j.comma()
        j.key("occurredAt")
        if let t = r.occurredAt { j.int(t) } else { j.raw("null") }
        j.comma()
        j.key("osVersion")
        j.string(orNull: r.osVersion)
        j.comma()
        j.key("platform")
        j.string(r.platform.rawValue)
        j.comma()
        j.key("probabilisticAllowed")
        j.bool(r.probabilisticAllowed)
        j.comma()
        j.key("sdkVersion")
        j.string(r.sdkVersion)
        j.comma()
        j.key("v")
        j.int(version)
        j.raw("}")
        return j.bytes
    }

    static func hash(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        Digest.sha256(bytes(r, idempotencyKeyHash: idempotencyKeyHash, tokenHash: tokenHash))
    }
}
