import CSodium
import Core
import XCTest

/// An independent check of a receipt using only a JWKS document and libsodium's
/// `crypto_sign_verify_detached`: what an app's backend would do.
enum ReceiptVerifier {
    struct Verified {
        var header: JSONValue
        var claims: JSONValue
    }

    static func verify(_ jws: String, jwks: [UInt8]) -> Verified? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
            let payload = Base64URL.decode(String(parts[1])), let signature = Base64URL.decode(String(parts[2])),
            signature.count == 64, let header = try? JSONParser.parse(headerBytes),
            let claims = try? JSONParser.parse(payload), let kid = header["kid"]?.stringValue,
            header["alg"]?.stringValue == "EdDSA", let set = try? JSONParser.parse(jwks),
            let keys = set["keys"]?.arrayValue,
            let jwk = keys.first(where: { $0["kid"]?.stringValue == kid }),
            jwk["kty"]?.stringValue == "OKP", jwk["crv"]?.stringValue == "Ed25519",
            let x = jwk["x"]?.stringValue, let publicKey = Base64URL.decode(x), publicKey.count == 32
        else { return nil }
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        _ = sodium_init()
        let ok = signature.withUnsafeBufferPointer { s in
            signingInput.withUnsafeBufferPointer { m in
                publicKey.withUnsafeBufferPointer { k in
                    crypto_sign_verify_detached(s.baseAddress!, m.baseAddress, UInt64(m.count), k.baseAddress!)
                }
            }
        }
        return ok == 0 ? Verified(header: header, claims: claims) : nil
    }
}
