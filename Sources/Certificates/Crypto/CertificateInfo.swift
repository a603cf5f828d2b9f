import CSystem
import Core

/// What the edge needs to know of an issued certificate (the first of a PEM chain).
public struct CertificateInfo: Sendable, Equatable {
    /// Unix milliseconds.
    public var notBefore: Int64
    public var notAfter: Int64
    /// RFC 2253 text.
    public var issuer: String
    public var selfIssued: Bool
    /// DNS SANs.
    public var hostnames: [String]
    /// The serial's DER content octets, and the authority key identifier: ARI's CertID.
    public var serial: [UInt8]
    public var authorityKeyIdentifier: [UInt8]

    public init?(pem: String) {
        var info = csys_cert_info()
        let bytes = Array(pem.utf8)
        let ok = bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { csys_cert_info($0.baseAddress, Int32(b.count), &info) }
        }
        guard ok == 1, info.not_before > 0, info.not_after > 0 else { return nil }
        notBefore = Int64(info.not_before) * 1_000
        notAfter = Int64(info.not_after) * 1_000
        issuer = withUnsafeBytes(of: &info.issuer) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        selfIssued = info.self_issued == 1
        hostnames = withUnsafeBytes(of: &info.names) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }.split(separator: "\n").map { $0.lowercased() }
        serial = withUnsafeBytes(of: &info.serial) { Array($0.prefix(Int(info.serial_len))) }
        authorityKeyIdentifier = withUnsafeBytes(of: &info.aki) { Array($0.prefix(Int(info.aki_len))) }
    }

    /// Whether the chain's first certificate belongs to `key`.
    public static func matches(pem: String, key: ECKey) -> Bool {
        let bytes = Array(pem.utf8)
        return bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { csys_cert_matches_key($0.baseAddress, Int32(b.count), key.pointer) }
        } == 1
    }

    /// ARI's CertID (RFC 9773, section 4.1): base64url of the authority key identifier,
    /// a dot, base64url of the serial; nil without an AKI.
    public var renewalInfoID: String? {
        Self.renewalInfoID(authorityKeyIdentifier: authorityKeyIdentifier, serial: serial)
    }

    public static func renewalInfoID(authorityKeyIdentifier: [UInt8], serial: [UInt8]) -> String? {
        guard !authorityKeyIdentifier.isEmpty, !serial.isEmpty else { return nil }
        return Base64URL.encode(authorityKeyIdentifier) + "." + Base64URL.encode(serial)
    }
}
