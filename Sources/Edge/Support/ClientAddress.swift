import HTTP
import HTTPMessages

/// Who the client really is, honouring `X-Forwarded-For` and `X-Forwarded-Proto`
/// only from trusted proxies (`BIQLI_EDGE_TRUSTED_PROXIES`).
struct ClientAddressResolver: Sendable {
    let trusted: [CIDR]

    /// The client as the edge resolves it: its address, and whether that address is
    /// known to be the client's. It is not when a trusted proxy named no client (a PROXY
    /// header without an address, or an HTTP proxy that sent no usable
    /// `X-Forwarded-For`): `address` is then the proxy's own, good enough to key a rate
    /// limit by, never to decide that the client is this machine.
    struct Client: Sendable, Equatable {
        var address: String
        var known: Bool

        /// Loopback (`127.0.0.0/8`, `::1`) and known to be the client: only then may a
        /// request see what the edge keeps for this machine (`/metrics`).
        var isLoopback: Bool { known && ClientAddressResolver.isLoopback(address) }
    }

    func isTrusted(_ address: String) -> Bool { trusted.contains { $0.contains(address) } }

    /// The client of a request.
    func client(_ context: RequestContext, _ headers: HTTPHeaders) -> Client {
        client(peer: context.peerAddress, proxyClientUnknown: context.proxyClientUnknown, headers: headers)
    }

    /// The client's address: the peer, or, when the peer is a trusted proxy, the rightmost
    /// address in `X-Forwarded-For` that is not itself a trusted proxy.
    func clientAddress(_ context: RequestContext, _ headers: HTTPHeaders) -> String {
        client(context, headers).address
    }

    func client(peer: String, proxyClientUnknown: Bool = false, headers: HTTPHeaders) -> Client {
        if proxyClientUnknown { return Client(address: peer, known: false) }
        guard !trusted.isEmpty, isTrusted(peer) else { return Client(address: peer, known: true) }
        var candidates: [String] = []
        for value in headers.values("x-forwarded-for") {
            for part in value.split(separator: ",") { candidates.append(String(part.trimmingSpaces())) }
        }
        // A trusted proxy that names nobody: the client could be anyone behind it.
        guard !candidates.isEmpty else { return Client(address: peer, known: false) }
        for address in candidates.reversed() {
            // A port or brackets from some proxies: keep the bare address.
            let bare = Self.stripPort(address)
            guard IPAddress(bare) != nil else { return Client(address: peer, known: false) }
            if !isTrusted(bare) { return Client(address: bare, known: true) }
        }
        // Every hop was a trusted proxy: the first of them saw the client.
        return Client(address: Self.stripPort(candidates[0]), known: true)
    }

    /// Whether the original request was HTTPS (directly, or per a trusted proxy).
    func isHTTPS(peer: String, listener: ListenerKind, headers: HTTPHeaders) -> Bool {
        if listener == .https { return true }
        guard !trusted.isEmpty, isTrusted(peer), let proto = headers["x-forwarded-proto"] else { return false }
        return proto.split(separator: ",").first.map { $0.trimmingSpaces().lowercased() == "https" } ?? false
    }

    /// `127.0.0.0/8` and `::1` (IPv4-mapped addresses arrive as plain IPv4).
    static func isLoopback(_ address: String) -> Bool {
        guard let ip = IPAddress(address) else { return false }
        return ip.isIPv4 ? (ip.low >> 24) & 0xFF == 127 : ip.high == 0 && ip.low == 1
    }

    private static func stripPort(_ text: String) -> String {
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            return String(text[..<colon])
        }
        return text
    }
}
