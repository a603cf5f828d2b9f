import CSystem

/// The certificate signing request sent at finalization (RFC 8555, section 7.4): the
/// hostnames as DNS SANs (the first also as the subject's CN), signed by the new
/// certificate's own key.
public enum CertificateRequest {
    /// DER.
    public static func der(key: ECKey, hostnames: [String]) throws(CryptoError) -> [UInt8] {
        guard !hostnames.isEmpty else { throw .failed("a CSR needs a hostname") }
        var out = [UInt8](repeating: 0, count: 16_384)
        let n = csys_csr_der(key.pointer, hostnames.joined(separator: "\n"), &out, Int32(out.count))
        guard n > 0 else { throw .failed("cannot make the CSR") }
        return Array(out.prefix(Int(n)))
    }

    /// What a CSR holds: its DNS names, and whether it is signed by its own P-256 key.
    public static func inspect(_ der: [UInt8]) -> (hostnames: [String], signedByP256Key: Bool)? {
        var names = [CChar](repeating: 0, count: 8192)
        var keyOK: Int32 = 0
        let n = der.withUnsafeBufferPointer { d in
            csys_csr_info(d.baseAddress, Int32(d.count), &names, Int32(names.count), &keyOK)
        }
        guard n >= 0 else { return nil }
        let text = String(decoding: names.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (text.split(separator: "\n").map(String.init), keyOK == 1)
    }
}
