import CSodium
import Core
import Model
import Store

/// One Ed25519 key in memory, ready to sign compact JWS.
///
/// Immutable after `init`; the secret lives in a buffer of its own that is
/// wiped when the key goes away, and libsodium's signing is thread-safe, so one
/// instance is shared by every thread.
// @unchecked: the secret is a raw buffer (never copied by Swift, wiped in `deinit`), written
// only in `init`; libsodium's signing reads it from any number of threads at once.
final class SigningKey: @unchecked Sendable {
    static let seedBytes = 32

    let kid: String
    let publicKey: [UInt8]
    let createdAt: Int64
    /// base64url of `{"alg":"EdDSA","kid":...,"typ":"JWT"}` followed by `.`.
    private let headerPrefix: [UInt8]
    private let secret: UnsafeMutableRawBufferPointer

    /// The key derived from a 32-byte seed (RFC 8032's private key). A
    /// 64-byte libsodium secret key (seed followed by public key) is accepted too.
    /// `kid` defaults to the RFC 7638 thumbprint; a stored key keeps its stored one.
    init?(secretKey: [UInt8], createdAt: Int64, kid: String? = nil) {
        _ = Sodium.ready
        let seed: [UInt8]
        switch secretKey.count {
        case SigningKey.seedBytes: seed = secretKey
        case Int(crypto_sign_SECRETKEYBYTES): seed = Array(secretKey.prefix(SigningKey.seedBytes))
        default: return nil
        }
        var pk = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        let sk = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(crypto_sign_SECRETKEYBYTES), alignment: 8)
        let rc = seed.withUnsafeBufferPointer { s in
            pk.withUnsafeMutableBufferPointer { p in
                crypto_sign_seed_keypair(p.baseAddress!, sk.bindMemory(to: UInt8.self).baseAddress!, s.baseAddress!)
            }
        }
        if rc != 0 {
            sodium_memzero(sk.baseAddress, sk.count)
            sk.deallocate()
            return nil
        }
        self.secret = sk
        self.publicKey = pk
        self.createdAt = createdAt
        self.kid = kid ?? SigningKey.thumbprint(pk)
        var header = Array(#"{"alg":"EdDSA","kid":"#.utf8)
        JSONWriter.writeString(self.kid, into: &header)
        header.append(contentsOf: #","typ":"JWT"}"#.utf8)
        var prefix: [UInt8] = []
        Base64URL.append(header, to: &prefix)
        prefix.append(UInt8(ascii: "."))
        self.headerPrefix = prefix
    }

    deinit {
        sodium_memzero(secret.baseAddress, secret.count)
        secret.deallocate()
    }

    /// A new random key; also returns its seed, which is what gets stored.
    static func generate(createdAt: Int64) -> (key: SigningKey, seed: [UInt8]) {
        let seed = Sodium.randomBytes(seedBytes)
        return (SigningKey(secretKey: seed, createdAt: createdAt)!, seed)
    }

    /// RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key: a stable,
    /// collision-free `kid` that anyone holding the JWK can recompute.
    static func thumbprint(_ publicKey: [UInt8]) -> String {
        let canonical = #"{"crv":"Ed25519","kty":"OKP","x":""# + Base64URL.encode(publicKey) + #""}"#
        return Base64URL.encode(SHA256.hash(canonical))
    }

    /// `header.payload.signature` as UTF-8 bytes, the payload being the claims' JSON
    /// bytes. Built in one buffer of its final size: the signed part is encoded in
    /// place, signed where it lies, and the signature encoded after it. Only
    /// base64url characters and dots, so a JSON string holds it without escapes.
    func sign(payload: [UInt8]) -> [UInt8] {
        let total = headerPrefix.count + Base64URL.encodedCount(payload.count) + Self.signatureSuffixCount
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            var o = headerPrefix.withUnsafeBytes { header in
                UnsafeMutableRawBufferPointer(out).copyMemory(from: header)
                return header.count
            }
            o += payload.withUnsafeBytes { Base64URL.encode($0, into: UnsafeMutableBufferPointer(rebasing: out[o...])) }
            initialized = appendSignature(out, signed: o)
        }
    }

    /// `header.payload` without its signature: what the store's writer keeps for a receipt
    /// that an event loop signs after the commit (decision 0023).
    func signingInput(payload: [UInt8]) -> [UInt8] {
        let total = headerPrefix.count + Base64URL.encodedCount(payload.count)
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            let o = headerPrefix.withUnsafeBytes { header in
                UnsafeMutableRawBufferPointer(out).copyMemory(from: header)
                return header.count
            }
            initialized =
                o
                + payload.withUnsafeBytes {
                    Base64URL.encode($0, into: UnsafeMutableBufferPointer(rebasing: out[o...]))
                }
        }
    }

    /// Whether `input` is a signing input of this key (its header names this key).
    func made(_ input: [UInt8]) -> Bool { input.starts(with: headerPrefix) }

    /// The compact JWS of a signing input (`header.payload`). Ed25519 is deterministic:
    /// the same input always gives the same JWS, so a replay signs its event's input again.
    func sign(input: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: input.count + Self.signatureSuffixCount) { out, initialized in
            let o = input.withUnsafeBytes { raw in
                UnsafeMutableRawBufferPointer(out).copyMemory(from: raw)
                return raw.count
            }
            initialized = appendSignature(out, signed: o)
        }
    }

    /// A dot and the base64url signature.
    private static let signatureSuffixCount = 1 + Base64URL.encodedCount(Int(crypto_sign_BYTES))

    /// Signs the first `signed` bytes of `out` and writes `.signature` after them; returns
    /// the bytes written in all.
    private func appendSignature(_ out: UnsafeMutableBufferPointer<UInt8>, signed: Int) -> Int {
        let signatureBytes = Int(crypto_sign_BYTES)
        var o = signed
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: signatureBytes) { signature in
            _ = crypto_sign_detached(
                signature.baseAddress!, nil, out.baseAddress!, UInt64(signed),
                secret.bindMemory(to: UInt8.self).baseAddress!)
            out[o] = UInt8(ascii: ".")
            o += 1
            o += Base64URL.encode(
                UnsafeRawBufferPointer(signature), into: UnsafeMutableBufferPointer(rebasing: out[o...]))
        }
        return o
    }
}
