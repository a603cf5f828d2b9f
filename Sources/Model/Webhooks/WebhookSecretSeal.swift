import CSodium
import Core

/// A webhook signing secret sealed at rest (decision 0031): XChaCha20-Poly1305 (libsodium's
/// IETF AEAD) under a key of the `WebhookKeyring`, a random 24-byte nonce each time, the
/// endpoint's id as associated data (a sealed value moved to another endpoint does not
/// open). Stored in place of the secret, in the same column:
///
///     whenc1.<key id>.<last 4 characters of the secret>.<base64url(nonce || ciphertext)>
///
/// The hint is what the API shows of a secret anyway (`secretHint`), so lists need no key.
/// A value without the prefix is a secret as an older version stored it (`whsec_...`),
/// used as it is until it is sealed.
public enum WebhookSecretSeal {
    public static let prefix = "whenc1."
    static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    public enum OpenError: Error, Equatable, CustomStringConvertible {
        /// Sealed with a key this keyring does not hold.
        case unknownKey(String)
        /// Not a sealed value that opens (changed, cut, moved to another endpoint).
        case damaged

        public var description: String {
            switch self {
            case .unknownKey(let id): return "sealed with the key \(id), which this node's keyring does not hold"
            case .damaged: return "the sealed secret does not open (damaged, or not this endpoint's)"
            }
        }
    }

    public static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// The id of the key that sealed `stored`; nil when it is not sealed.
    public static func keyId(_ stored: String) -> String? {
        guard isSealed(stored) else { return nil }
        return parts(stored).map { String($0.id) }
    }

    /// The last 4 characters of the secret `stored` holds, sealed or not.
    public static func hint(_ stored: String) -> String {
        guard isSealed(stored) else { return String(stored.suffix(4)) }
        return parts(stored).map { String($0.hint) } ?? ""
    }

    public static func seal(_ secret: String, endpointId: String, key: WebhookKeyring.Key) -> String {
        let nonce = SecureRandom.bytes(nonceBytes)
        let message = Array(secret.utf8)
        let ad = associatedData(endpointId)
        var sealed = [UInt8](repeating: 0, count: message.count + tagBytes)
        var length: UInt64 = 0
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
            &sealed, &length, message, UInt64(message.count), ad, UInt64(ad.count), nil, nonce, key.bytes)
        return prefix + key.id + "." + String(secret.suffix(4)) + "." + Base64URL.encode(nonce + sealed)
    }

    /// The secret `stored` holds: itself when it is not sealed.
    public static func open(_ stored: String, endpointId: String, keyring: WebhookKeyring) throws(OpenError)
        -> String
    {
        guard isSealed(stored) else { return stored }
        guard let p = parts(stored) else { throw .damaged }
        guard let key = keyring.key(id: String(p.id)) else { throw .unknownKey(String(p.id)) }
        guard let box = Base64URL.decode(String(p.box)), box.count > nonceBytes + tagBytes else { throw .damaged }
        let nonce = Array(box.prefix(nonceBytes))
        let sealed = Array(box.dropFirst(nonceBytes))
        let ad = associatedData(endpointId)
        var message = [UInt8](repeating: 0, count: sealed.count - tagBytes)
        var length: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
            &message, &length, nil, sealed, UInt64(sealed.count), ad, UInt64(ad.count), nonce, key.bytes)
        guard status == 0, let text = String(validating: message.prefix(Int(length)), as: UTF8.self) else {
            throw .damaged
        }
        return text
    }

    /// `stored` sealed with `key`: opened with `keyring` first when sealed with another key
    /// (a rotation), sealed when it was not; as it is when `key` sealed it.
    public static func reseal(
        _ stored: String, endpointId: String, keyring: WebhookKeyring, with key: WebhookKeyring.Key
    ) throws(OpenError) -> String {
        if keyId(stored) == key.id { return stored }
        return seal(try open(stored, endpointId: endpointId, keyring: keyring), endpointId: endpointId, key: key)
    }

    private static func associatedData(_ endpointId: String) -> [UInt8] {
        Array(("biqli-edge webhook secret " + endpointId).utf8)
    }

    private static func parts(_ stored: String) -> (id: Substring, hint: Substring, box: Substring)? {
        let fields = stored.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count == 3, WebhookKeyring.Key.isId(fields[0]), fields[1].utf8.count <= 4 else { return nil }
        return (fields[0], fields[1], fields[2])
    }
}
