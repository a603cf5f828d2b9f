import Core

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

    static func value(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> JSONValue {
        .object([
            ("v", .int(version)),
            ("eventId", .string(r.eventId)),
            ("idempotencyKey", .string(Hex.encode(idempotencyKeyHash))),
            ("appId", .string(r.appId)),
            ("appInstanceId", .string(r.appInstanceId)),
            ("platform", .string(r.platform.rawValue)),
            ("firstOpen", .bool(r.firstOpen)),
            ("probabilisticAllowed", .bool(r.probabilisticAllowed)),
            ("handoffToken", tokenHash.map { .string(Hex.encode($0)) } ?? .null),
            ("deepLink", .string(orNull: r.deepLink)),
            ("domain", .string(orNull: r.domain)),
            ("appVersion", .string(orNull: r.appVersion)),
            ("osVersion", .string(orNull: r.osVersion)),
            ("sdkVersion", .string(r.sdkVersion)),
            ("occurredAt", r.occurredAt.map { .int($0) } ?? .null),
        ])
    }

    static func bytes(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        value(r, idempotencyKeyHash: idempotencyKeyHash, tokenHash: tokenHash).canonicalBytes
    }

    static func hash(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        SHA256.hash(bytes(r, idempotencyKeyHash: idempotencyKeyHash, tokenHash: tokenHash))
    }
}
