import COpenSSL
import CSystem
import Core

/// An ECDSA P-256 private key (OpenSSL `EVP_PKEY`): the ACME account's key, which signs
/// every request (JWS ES256), and each certificate's key.
///
/// The PEM is a secret: it goes to the store, never to a log or an error message.
// @unchecked: it wraps an OpenSSL EVP_PKEY never changed after `init`; OpenSSL signs with one from any thread.
public final class ECKey: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { csys_pkey_free(pointer) }

    /// A fresh key.
    public static func generate() throws(CryptoError) -> ECKey {
        guard let key = csys_ec_p256_generate() else { throw .failed("cannot generate an ECDSA P-256 key") }
        return ECKey(key)
    }

    /// The key of a PEM private key (PKCS#8 or SEC 1); only P-256 keys are taken.
    public convenience init(pem: String) throws(CryptoError) {
        let bytes = Array(pem.utf8)
        let key = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { csys_pkey_from_pem($0.baseAddress, Int32(b.count)) }
        }
        guard let key else { throw .failed("not a PEM private key") }
        var x = [UInt8](repeating: 0, count: 32)
        var y = [UInt8](repeating: 0, count: 32)
        guard csys_ec_public_xy(key, &x, &y) == 1 else {
            csys_pkey_free(key)
            throw .failed("not an ECDSA P-256 key")
        }
        self.init(key)
    }

    /// PKCS#8 PEM.
    public var pem: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = csys_pkey_private_pem(pointer, &buffer, Int32(buffer.count))
        guard n > 0 else { return "" }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The public point's coordinates, 32 bytes each.
    var coordinates: (x: [UInt8], y: [UInt8]) {
        var x = [UInt8](repeating: 0, count: 32)
        var y = [UInt8](repeating: 0, count: 32)
        _ = csys_ec_public_xy(pointer, &x, &y)
        return (x, y)
    }

    /// The public key as a JWK (RFC 7517), members in the order RFC 7638 hashes them.
    public var publicJWK: JSONValue {
        let (x, y) = coordinates
        return .object([
            ("crv", "P-256"), ("kty", "EC"), ("x", .string(Base64URL.encode(x))), ("y", .string(Base64URL.encode(y))),
        ])
    }

    /// The JWK thumbprint (RFC 7638): base64url of the SHA-256 of the canonical JWK, the
    /// second half of every key authorization.
    public var thumbprint: String {
        let (x, y) = coordinates
        let canonical =
            #"{"crv":"P-256","kty":"EC","x":""# + Base64URL.encode(x) + #"","y":""# + Base64URL.encode(y)
            + #""}"#
        return Base64URL.encode(SHA256.hash(canonical))
    }

    /// ES256: ECDSA P-256 over SHA-256 of `data`, as r || s (64 bytes).
    public func sign(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        let ok = data.withUnsafeBufferPointer { d in csys_es256_sign(pointer, d.baseAddress, d.count, &signature) }
        guard ok == 1 else { throw .failed("ES256 signing failed") }
        return signature
    }

    /// Whether `signature` (r || s) is this key's ES256 signature of `data`.
    public func verify(_ signature: [UInt8], of data: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        return data.withUnsafeBufferPointer { d in
            signature.withUnsafeBufferPointer { s in csys_es256_verify(pointer, d.baseAddress, d.count, s.baseAddress) }
        } == 1
    }
}

/// OpenSSL could not do what was asked (the reason, never a key).
public enum CryptoError: Error, Equatable, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let m): return m
        }
    }
}
