import HTTP
import HTTPTypes

/// Who the client really is, honouring `X-Forwarded-For` and `X-Forwarded-Proto`
/// only from trusted proxies (`BIQLI_EDGE_TRUSTED_PROXIES`).
struct ClientAddressResolver: Sendable {
    let trusted: [CIDR]

    func isTrusted(_ address: String) -> Bool { trusted.contains { $0.contains(address) } }

    /// The client address: the peer, or, when the peer is a trusted proxy, the rightmost
    /// address in `X-Forwarded-For` that is not itself a trusted proxy.
    func clientAddress(peer: String, headers: HTTPHeaders) -> String {
        guard !trusted.isEmpty, isTrusted(peer) else { return peer }
        var candidates: [String] = []
        for value in headers.values("x-forwarded-for") {
            for part in value.split(separator: ",") { candidates.append(String(part.trimmingSpaces())) }
        }
        for address in candidates.reversed() {
            // A port or brackets from some proxies: keep the bare address.
            let bare = Self.stripPort(address)
            guard IPAddress(bare) != nil else { return peer }
            if !isTrusted(bare) { return bare }
        }
        return candidates.first.map(Self.stripPort) ?? peer
    }

    /// Whether the original request was HTTPS (directly, or per a trusted proxy).
    func isHTTPS(peer: String, listener: ListenerKind, headers: HTTPHeaders) -> Bool {
        if listener == .https { return true }
        guard !trusted.isEmpty, isTrusted(peer), let proto = headers["x-forwarded-proto"] else { return false }
        return proto.split(separator: ",").first.map { $0.trimmingSpaces().lowercased() == "https" } ?? false
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
