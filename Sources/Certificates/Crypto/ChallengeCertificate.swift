import CSystem
import Core

/// The certificate a TLS-ALPN-01 validation must find (RFC 8737, section 3): self-signed,
/// the hostname as its only DNS SAN, and the critical `id-pe-acmeIdentifier` extension
/// holding the SHA-256 of the key authorization. Made with a fresh key each time.
public enum ChallengeCertificate {
    /// The certificate, then its private key (PEM).
    public static func pem(hostname: String, keyAuthorization: String) throws(CryptoError) -> [UInt8] {
        let digest = SHA256.hash(keyAuthorization)
        var out = [CChar](repeating: 0, count: 8192)
        let n = digest.withUnsafeBufferPointer { d in
            csys_alpn_challenge_pem(hostname, d.baseAddress, &out, Int32(out.count))
        }
        guard n > 0 else { throw .failed("cannot make the TLS-ALPN-01 certificate") }
        return out.prefix(Int(n)).map { UInt8(bitPattern: $0) }
    }

    /// The digest in a certificate's acmeIdentifier extension (critical), if it has one.
    public static func identifierDigest(pem: [UInt8]) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = pem.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { csys_acme_identifier_digest($0.baseAddress, Int32(b.count), &out) }
        }
        return ok == 1 ? out : nil
    }
}
