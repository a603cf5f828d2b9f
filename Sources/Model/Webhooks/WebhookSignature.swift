import CSodium
import Core

/// Standard Webhooks signatures: `v1,` + base64(HMAC-SHA256(key, id.timestamp.body)),
/// the key being the secret's bytes after `whsec_` (decision 0028).
public enum WebhookSignature {
    /// `v1,<sig>` for each secret, space-separated (both during a rotation's overlap).
    public static func header(secrets: [String], id: String, timestamp: Int64, body: [UInt8]) -> String {
        secrets.compactMap { secret in
            WebhookSecret.key(secret).map {
                "v1," + Base64.encode(sign(key: $0, id: id, timestamp: timestamp, body: body))
            }
        }.joined(separator: " ")
    }

    public static func sign(key: [UInt8], id: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(id.utf8.count + 24 + body.count)
        content += Array(id.utf8)
        content.append(UInt8(ascii: "."))
        content += Array(String(timestamp).utf8)
        content.append(UInt8(ascii: "."))
        content += body
        return hmacSHA256(key: key, data: content)
    }

    public static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: 32)
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, data, UInt64(data.count))
        _ = crypto_auth_hmacsha256_final(&state, &out)
        return out
    }
}

/// `whsec_` + base64 of the key's bytes.
public enum WebhookSecret {
    public static let prefix = "whsec_"
    public static let keyBytes = 32

    public static func make() -> String { prefix + Base64.encode(SecureRandom.bytes(keyBytes)) }

    /// The key's bytes; nil unless `whsec_` + base64 of 24 to 64 bytes.
    public static func key(_ secret: String) -> [UInt8]? {
        guard secret.hasPrefix(prefix), let key = Base64.decode(String(secret.dropFirst(prefix.count))),
            (24...64).contains(key.count)
        else { return nil }
        return key
    }

    /// What lists show of a secret: its last 4 characters (sealed or not: `WebhookSecretSeal`).
    public static func hint(_ secret: String) -> String { prefix + "…" + WebhookSecretSeal.hint(secret) }
}
