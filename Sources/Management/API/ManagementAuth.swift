import Core
import HTTPMessages
import Model
import Store

/// `Authorization: Bearer biqli_sk_...`: a workspace secret key, looked up by the
/// SHA-256 of its whole text, not revoked. Anything else (no header, another scheme,
/// an unknown or revoked key, a `biqli_pk_` or `biqli_mobile_pk_` key, two
/// `Authorization` fields) is `invalid_token`, with one message for all so that the
/// answer tells nothing about which keys exist.
enum ManagementAuth {
    /// `biqli_sk_` + 43 base64url characters.
    static func isWellFormed(_ key: String) -> Bool {
        let prefix = KeyMaterial.secretPrefix
        guard key.hasPrefix(prefix), key.utf8.count == prefix.utf8.count + 43 else { return false }
        return key.utf8.dropFirst(prefix.utf8.count).allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
    }

    /// The bearer token of an `Authorization` value (scheme case-insensitive).
    static func bearer(_ value: String?) -> String? {
        guard let value, value.utf8.count > 7, value.prefix(7).lowercased() == "bearer " else { return nil }
        let token = value.dropFirst(7).drop { $0 == " " || $0 == "\t" }
        let trimmed = token.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// The key record that authenticates `headers`. A request with two `Authorization`
    /// fields is refused whatever they hold: a proxy or a client library that added a
    /// second one must not decide which key acts (RFC 9110 5.3 allows no list here).
    static func authenticate(_ headers: HTTPHeaders, reader: any KeyReading) throws -> SecretKeyRecord {
        let values = headers.values("authorization")
        guard values.count == 1, let key = bearer(values[0]), isWellFormed(key),
            let record = try reader.secretKey(hash: KeyMaterial.hash(key)), record.revokedAt == nil
        else { throw ManagementError.invalidToken }
        return record
    }
}
