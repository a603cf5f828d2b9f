import Core
import Model
import Store

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
/// - Carries the handoff token's storage key (`HandoffToken.hash`) rather than the token.
///
/// Version 2 (decision 0008) is binary: the members of version 1's sorted-key
/// JSON in the same order, each self-delimiting (absent `0`; present `1`, then a
/// big-endian 16-bit length and the bytes, or 8 bytes for the instant; booleans
/// `0`/`1`), so that equal requests give equal bytes and different ones
/// different bytes, in about half the bytes to hash and without escaping or hex.
enum CanonicalRequest {
    static let version: UInt8 = 2

    static func bytes(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        out.append(version)
        text(r.appId, &out)
        text(r.appInstanceId, &out)
        optionalText(r.appVersion, &out)
        optionalText(r.deepLink, &out)
        optionalText(r.domain, &out)
        text(r.eventId, &out)
        out.append(r.firstOpen ? 1 : 0)
        if let tokenHash { bytes(tokenHash, &out) } else { out.append(0) }
        bytes(idempotencyKeyHash, &out)
        if let t = r.occurredAt {
            out.append(1)
            for shift in stride(from: 56, through: 0, by: -8) {
                out.append(UInt8(truncatingIfNeeded: t >> Int64(shift)))
            }
        } else {
            out.append(0)
        }
        optionalText(r.osVersion, &out)
        text(r.platform.rawValue, &out)
        out.append(r.probabilisticAllowed ? 1 : 0)
        text(r.sdkVersion, &out)
        return out
    }

    static func hash(_ r: OpenRequest, idempotencyKeyHash: [UInt8], tokenHash: [UInt8]?) -> [UInt8] {
        SHA256.hash(bytes(r, idempotencyKeyHash: idempotencyKeyHash, tokenHash: tokenHash))
    }

    private static func length(_ n: Int, _ out: inout [UInt8]) {
        // Validated members are far below 64 KiB (the body is at most 16 KiB).
        precondition(n <= 0xFFFF, "canonical member too long")
        out.append(1)
        out.append(UInt8(truncatingIfNeeded: n >> 8))
        out.append(UInt8(truncatingIfNeeded: n))
    }

    private static func text(_ s: String, _ out: inout [UInt8]) {
        var s = s
        s.withUTF8 { u in
            length(u.count, &out)
            out.append(contentsOf: u)
        }
    }

    private static func optionalText(_ s: String?, _ out: inout [UInt8]) {
        if let s { text(s, &out) } else { out.append(0) }
    }

    private static func bytes(_ b: [UInt8], _ out: inout [UInt8]) {
        length(b.count, &out)
        out.append(contentsOf: b)
    }
}
