import Synchronization

/// The HTTP-01 challenges this node answers now (RFC 8555, section 8.3): token ->
/// hostname and key authorization. The certificate manager fills it (its own challenges
/// at once, the fleet's from the store); the plain-HTTP listener's route
/// `/.well-known/acme-challenge/{token}` reads it from any loop.
public final class ChallengeBoard: Sendable {
    private struct Entry: Sendable {
        var hostname: String
        var keyAuthorization: String
    }

    private let entries = Mutex<[String: Entry]>([:])

    public init() {}

    /// The key authorization for `token`, when it was issued for `host` (the request's
    /// `Host`, without port): nil otherwise.
    public func answer(token: String, host: String) -> String? {
        entries.withLock { e in
            guard let entry = e[token], entry.hostname == host.lowercased() else { return nil }
            return entry.keyAuthorization
        }
    }

    func set(token: String, hostname: String, keyAuthorization: String) {
        entries.withLock { $0[token] = Entry(hostname: hostname.lowercased(), keyAuthorization: keyAuthorization) }
    }

    func remove(token: String) { _ = entries.withLock { $0.removeValue(forKey: token) } }

    var tokens: Set<String> { entries.withLock { Set($0.keys) } }
}
