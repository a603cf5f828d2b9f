import COpenSSL
import CSystem

/// One server `SSL_CTX` with the edge's TLS policy and one certificate chain.
///
/// Policy: TLS 1.2 minimum, AEAD ECDHE suites only for 1.2 (1.3 uses OpenSSL's
/// defaults, all AEAD), server cipher preference, no compression, no
/// renegotiation, session IDs and tickets for resumption, ALPN `http/1.1`.
// @unchecked: holds an `SSL_CTX` (C), configured in `init` and only read after; OpenSSL
// lets any number of threads' connections use one context at once.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// DNS names the certificate covers (SANs and CN), lower-cased.
    let names: [String]
    /// Unix seconds.
    let notAfter: Int64
    /// Issued by itself (self-signed, like the generated `default.pem`).
    let selfIssued: Bool
    /// The issuer's name, RFC 2253 text (`CN=R11,O=Let's Encrypt,C=US`).
    let issuer: String
    /// The file, or the label of a certificate given in memory.
    let path: String

    static let cipherList =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

    /// Loads `path` (PEM: certificate chain, then the private key). Throws a message naming the problem.
    convenience init(pemPath path: String) throws(TLSError) {
        let ctx = try Self.makeContext(path: path, alpn: .http11)
        guard SSL_CTX_use_certificate_chain_file(ctx, path) == 1 else {
            throw Self.fail(ctx, path, "no usable certificate chain")
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, path, SSL_FILETYPE_PEM) == 1 else {
            throw Self.fail(ctx, path, "no usable private key")
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw Self.fail(ctx, path, "private key does not match the certificate")
        }
        self.init(ctx, path: path)
    }

    /// Which ALPN protocols a context accepts.
    enum ALPN {
        /// `http/1.1` (or none): every serving context.
        case http11
        /// `acme-tls/1` only: a TLS-ALPN-01 challenge certificate (`ALPNCertificates`).
        case acmeOnly
    }

    /// Loads a PEM held in memory (certificate chain, then the private key); `label` names
    /// it in errors (the PEM holds a private key: never in a message).
    convenience init(pem: [UInt8], label: String, alpn: ALPN = .http11) throws(TLSError) {
        let ctx = try Self.makeContext(path: label, alpn: alpn)
        let rc = pem.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { csys_ssl_ctx_use_pem(ctx, $0.baseAddress, Int32(b.count)) }
        }
        switch rc {
        case 0: break
        case 1: throw Self.fail(ctx, label, "no usable certificate chain")
        case 2: throw Self.fail(ctx, label, "no usable private key")
        default: throw Self.fail(ctx, label, "private key does not match the certificate")
        }
        self.init(ctx, path: label)
    }

    private init(_ ctx: OpaquePointer, path: String) {
        var buffer = [CChar](repeating: 0, count: 8192)
        let n = csys_ssl_ctx_cert_names(ctx, &buffer, Int32(buffer.count))
        let text = n > 0 ? String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        self.names = Array(Set(text.split(separator: "\n").map { $0.lowercased() })).sorted()
        self.notAfter = csys_ssl_ctx_cert_not_after(ctx)
        self.selfIssued = csys_ssl_ctx_cert_self_issued(ctx) == 1
        var issuerBuffer = [CChar](repeating: 0, count: 512)
        let m = csys_ssl_ctx_cert_issuer(ctx, &issuerBuffer, Int32(issuerBuffer.count))
        self.issuer =
            m > 0 ? String(decoding: issuerBuffer.prefix(Int(m)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        self.pointer = ctx
        self.path = path
    }

    /// A new server context with the edge's policy, before its certificate.
    private static func makeContext(path: String, alpn: ALPN) throws(TLSError) -> OpaquePointer {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw TLSError.openssl("SSL_CTX_new failed") }
        _ = csys_ssl_ctx_set_min_proto_tls12(ctx)
        _ = csys_ssl_ctx_set_options_defaults(ctx)
        _ = csys_ssl_ctx_set_mode_defaults(ctx)
        _ = csys_ssl_ctx_set_session_cache_server(ctx)
        _ = csys_ssl_ctx_set_session_id_context(ctx)
        _ = csys_ssl_ctx_set_groups(ctx, "X25519:P-256:P-384")
        guard SSL_CTX_set_cipher_list(ctx, TLSContext.cipherList) == 1 else {
            throw fail(ctx, path, "cipher list refused")
        }
        switch alpn {
        case .http11: csys_ssl_ctx_set_alpn_http11(ctx)
        case .acmeOnly: csys_ssl_ctx_set_alpn_acme_only(ctx)
        }
        return ctx
    }

    /// Frees `ctx` and names the problem (with OpenSSL's reason).
    private static func fail(_ ctx: OpaquePointer, _ path: String, _ what: String) -> TLSError {
        let detail = TLSError.lastOpenSSLError()
        SSL_CTX_free(ctx)
        return TLSError.certificate(path: path, reason: what + (detail.isEmpty ? "" : ": " + detail))
    }

    deinit { SSL_CTX_free(pointer) }

    var isValidNow: Bool { csys_ssl_ctx_cert_valid_now(pointer) == 1 }
}

public enum TLSError: Error, Equatable, CustomStringConvertible {
    case openssl(String)
    case certificate(path: String, reason: String)

    public var description: String {
        switch self {
        case .openssl(let m): return m
        case .certificate(let path, let reason): return "\(path): \(reason)"
        }
    }

    /// What went wrong, without the path.
    var reason: String {
        switch self {
        case .openssl(let m): return m
        case .certificate(_, let reason): return reason
        }
    }

    /// Drains OpenSSL's error queue of this thread into one line.
    static func lastOpenSSLError() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buf = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buf, buf.count)
            parts.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.joined(separator: "; ")
    }
}
