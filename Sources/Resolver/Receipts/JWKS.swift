import Core
import Model
import Store

/// The public half of the receipt keys as a JSON Web Key Set (RFC 7517/8037).
public enum JWKS {
    /// The keys a verifier may meet at `now`: every key not retired, and every
    /// retired key until its `publishUntil` (after the last receipt it signed
    /// has expired). Newest first.
    public static func publishedKeys(_ records: [SigningKeyRecord], now: Int64) -> [SigningKeyRecord] {
        records.filter { r in
            r.publicKey.count == 32 && (r.retiredAt == nil || (r.publishUntil.map { now < $0 } ?? false))
        }
        .sorted { ($0.createdAt, $0.kid) > ($1.createdAt, $1.kid) }
    }

    /// `{"keys":[{"kty":"OKP","crv":"Ed25519","x":...,"kid":...,"use":"sig","alg":"EdDSA"}]}`.
    public static func document(_ records: [SigningKeyRecord], now: Int64) -> [UInt8] {
        let keys: [JSONValue] = publishedKeys(records, now: now).map { r in
            .object([
                ("kty", "OKP"), ("crv", "Ed25519"), ("x", .string(Base64URL.encode(r.publicKey))),
                ("kid", .string(r.kid)), ("use", "sig"), ("alg", "EdDSA"),
            ])
        }
        return JSONValue.object([("keys", .array(keys))]).jsonBytes
    }
}
