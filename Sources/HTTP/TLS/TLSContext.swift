import COpenSSL
import CSystem

/// One server `SSL_CTX` with the edge's TLS policy and one certificate chain.
///
/// Policy: TLS 1.2 minimum, AEAD ECDHE suites only for 1.2 (1.3 uses OpenSSL's
/// defaults, all AEAD), server cipher preference, no compression, no
/// renegotiation, session IDs and tickets for resumption, ALPN `http/1.1`.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// DNS names the certificate covers (SANs and CN), lower-cased.
    let names: [String]
    /// Unix seconds.
    let notAfter: Int64
    let path: String

    static let cipherList =
        "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
        + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

    /// Loads `path` (PEM: certificate chain, then the private key). Throws a message naming the problem.
    init(pemPath path: String) throws(TLSError) {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw TLSError.openssl("SSL_CTX_new failed") }
        func fail(_ what: String) -> TLSError {
            let detail = TLSError.lastOpenSSLError()
            SSL_CTX_free(ctx)
            return TLSError.certificate(path: path, reason: what + (detail.isEmpty ? "" : ": " + detail))
        }
        _ = csys_ssl_ctx_set_min_proto_tls12(ctx)
        _ = csys_ssl_ctx_set_options_defaults(ctx)
        _ = csys_ssl_ctx_set_mode_defaults(ctx)
        _ = csys_ssl_ctx_set_session_cache_server(ctx)
        _ = csys_ssl_ctx_set_session_id_context(ctx)
        _ = csys_ssl_ctx_set_groups(ctx, "X25519:P-256:P-384")
        guard SSL_CTX_set_cipher_list(ctx, TLSContext.cipherList) == 1 else { throw fail("cipher list refused") }
        csys_ssl_ctx_set_alpn_http11(ctx)
        guard SSL_CTX_use_certificate_chain_file(ctx, path) == 1 else {
            throw fail("no usable certificate chain")
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, path, SSL_FILETYPE_PEM) == 1 else {
            throw fail("no usable private key")
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else { throw fail("private key does not match the certificate") }
        var buffer = [CChar](repeating: 0, count: 8192)
        let n = csys_ssl_ctx_cert_names(ctx, &buffer, Int32(buffer.count))
        let text = n > 0 ? String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        self.names = Array(Set(text.split(separator: "\n").map { $0.lowercased() })).sorted()
        self.notAfter = csys_ssl_ctx_cert_not_after(ctx)
        self.pointer = ctx
        self.path = path
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
