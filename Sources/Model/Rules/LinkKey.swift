import Core

/// The rules of a link's key, the one path segment after the domain: what a visit
/// may look up and what the workspace API may store.
public enum LinkKey {
    /// First path segments the edge routes itself (the API, handoff pages, assets,
    /// association files, health and metrics): never link keys, whatever their case.
    public static let reserved: Set<String> = [
        "api", "m", "_biqli", ".well-known", "healthz", "metrics", "apple-app-site-association", "favicon.ico",
        "robots.txt",
    ]

    /// True for a syntactically possible link key (`^[A-Za-z0-9_-]{1,64}$`: the
    /// base64url alphabet). A table look-up per byte, not a `Set`: every visit checks
    /// its key, and hashing each byte cost more than the link lookup that follows.
    /// Inlinable so that the visit path pays no more than when it lived there.
    @inlinable
    public static func isPossible(_ key: Substring) -> Bool {
        let count = key.utf8.count
        return count >= 1 && count <= 64 && Base64URL.isAlphabet(key)
    }
}
