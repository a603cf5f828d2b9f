import Core

/// ACME's request bodies: JSON Web Signatures in flattened JSON serialization
/// (RFC 8555, section 6.2; RFC 7515), signed ES256 with the account key.
///
/// The protected header names the algorithm, the anti-replay nonce and the request's
/// URL, and either the account's public key (`jwk`, for `newAccount`) or its URL (`kid`,
/// for everything after). An empty payload is a POST-as-GET (section 6.3).
public enum JWS {
    public enum KeyIdentification: Sendable {
        case jwk
        case kid(String)
    }

    public static func sign(
        payload: JSONValue?, url: String, nonce: String, key: ECKey, identification: KeyIdentification
    ) throws(CryptoError) -> [UInt8] {
        var header: [(String, JSONValue)] = [("alg", "ES256")]
        switch identification {
        case .jwk: header.append(("jwk", key.publicJWK))
        case .kid(let account): header.append(("kid", .string(account)))
        }
        header.append(("nonce", .string(nonce)))
        header.append(("url", .string(url)))
        let protected = Base64URL.encode(JSONValue.object(header).jsonBytes)
        let body = payload.map { Base64URL.encode($0.jsonBytes) } ?? ""
        let signature = try key.sign(Array((protected + "." + body).utf8))
        return JSONValue.object([
            ("protected", .string(protected)), ("payload", .string(body)),
            ("signature", .string(Base64URL.encode(signature))),
        ]).jsonBytes
    }

    /// The external account binding of a `newAccount` request (RFC 8555, section 7.3.4):
    /// the account's public JWK signed HS256 with the CA's MAC key, naming the CA's key id.
    public static func externalAccountBinding(
        accountKey: ECKey, keyID: String, macKey: [UInt8], url: String
    ) -> JSONValue {
        let protected = Base64URL.encode(
            JSONValue.object([("alg", "HS256"), ("kid", .string(keyID)), ("url", .string(url))]).jsonBytes)
        let payload = Base64URL.encode(accountKey.publicJWK.jsonBytes)
        let mac = HMACSHA256.mac(key: macKey, data: Array((protected + "." + payload).utf8))
        return .object([
            ("protected", .string(protected)), ("payload", .string(payload)),
            ("signature", .string(Base64URL.encode(mac))),
        ])
    }

    /// The key authorization of a challenge token (RFC 8555, section 8.1).
    public static func keyAuthorization(token: String, accountKey: ECKey) -> String {
        token + "." + accountKey.thumbprint
    }
}
