/// What a connection's first bytes may or must be, decided at accept from the PROXY
/// protocol mode and whether the peer is a trusted proxy; then, as bytes arrive, what
/// the loop does with them (`decide`). Pure: the socket side is `EventLoop+Proxy.swift`.
enum ProxyExpectation: Sendable, Equatable {
    /// A trusted proxy, mode `on`: a header must come first.
    case required
    /// A trusted proxy, mode `optional`: a header may come first.
    case allowed
    /// Any other peer (mode `on` or `optional`): a header is refused, anything else is
    /// served as usual.
    case forbidden

    /// Nil when the mode is `off`: the connection skips the step altogether.
    init?(mode: ProxyProtocolMode, trusted: Bool) {
        switch mode {
        case .off: return nil
        case .on: self = trusted ? .required : .forbidden
        case .optional: self = trusted ? .allowed : .forbidden
        }
    }

    /// What to do with `seen`, the connection's bytes so far, of which the first
    /// `consumed` were already taken from the socket (the rest were only peeked at). On a
    /// TLS listener the bytes taken cannot be handed to OpenSSL, so a connection that took
    /// some and turns out to send no header is closed (only garbage does: a ClientHello's
    /// first byte matches neither signature).
    func decide(_ seen: UnsafeRawBufferPointer, consumed: Int, tls: Bool) -> ProxyDecision {
        let parsed = ProxyHeaderParser.parse(seen)
        switch self {
        case .forbidden:
            switch parsed {
            case .notProxy: return tls && consumed > 0 ? .refuse(.malformed) : .noHeader
            case .needMore: return ProxyHeaderParser.hasSignature(seen) ? .refuse(.untrusted) : .wait
            case .header, .invalid: return .refuse(.untrusted)
            }
        case .required:
            switch parsed {
            case .notProxy: return .refuse(.missing)
            case .needMore: return .wait
            case .header(let header): return .accept(header)
            case .invalid: return .refuse(.malformed)
            }
        case .allowed:
            switch parsed {
            case .notProxy: return tls && consumed > 0 ? .refuse(.malformed) : .noHeader
            case .needMore: return .wait
            case .header(let header): return .accept(header)
            case .invalid: return .refuse(.malformed)
            }
        }
    }
}

/// What the loop does with a connection's first bytes.
enum ProxyDecision: Equatable, Sendable {
    /// Take every byte seen (all belong to a header, or may) and wait for more.
    case wait
    /// Take the header's bytes; its source, if any, becomes the connection's client address.
    case accept(ProxyHeader)
    /// No header: go on with the bytes where they are.
    case noHeader
    /// Close without a word.
    case refuse(ProxyRefusal)
}

/// Why a connection was closed at the PROXY protocol step (`biqli_proxy_protocol_refused_total`).
enum ProxyRefusal: Int, Sendable, CaseIterable {
    /// A header from a peer that is not a trusted proxy.
    case untrusted
    /// No header from a trusted proxy, with the mode `on`.
    case missing
    /// A header that breaks the specification, or is too long.
    case malformed

    var label: String {
        switch self {
        case .untrusted: return "untrusted"
        case .missing: return "missing"
        case .malformed: return "malformed"
        }
    }
}
