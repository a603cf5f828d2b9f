/// Whether the HTTP and HTTPS listeners (never the metrics one) take a PROXY protocol
/// header from the trusted proxies (`HTTPServerConfiguration.trustedProxies`): the load
/// balancer in front passes TCP through (the edge terminates TLS itself) and names the
/// visitor in the header. Decision 0015.
public enum ProxyProtocolMode: String, Sendable, CaseIterable {
    /// No PROXY header is expected; one would be bytes of a bad request or handshake.
    case off
    /// A connection from a trusted proxy must start with a header, or it is closed; from
    /// any other peer a header is refused and everything else is served as usual, so that
    /// visitors who reach the edge directly keep working.
    case on
    /// As `on`, but a trusted proxy may also connect without a header (while a balancer's
    /// configuration changes, or for a proxy that speaks HTTP and sends `X-Forwarded-For`).
    case optional
}
