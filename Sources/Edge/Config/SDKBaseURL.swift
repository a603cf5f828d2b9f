/// What the official SDKs are given as their API base URL: `BIQLI_EDGE_PUBLIC_URL` +
/// `/api/v1`. Their `configure` accepts only an HTTPS URL without credentials, query or
/// fragment, and the Android SDK only on port 443 (an explicit `:443` or none), so a
/// public URL that breaks this cannot be given to them: `check` and the start-up log
/// say so, and the demo banner shows what to use instead.
enum SDKBaseURL {
    /// The API base URL the SDKs take.
    static func apiBase(publicURL: String) -> String { publicURL + "/api/v1" }

    /// Why the SDKs would refuse `publicURL`'s API base, nil when they take it.
    static func problem(publicURL: String) -> String? {
        let lower = publicURL.lowercased()
        guard lower.hasPrefix("https://") else {
            return "it is not HTTPS (the SDKs take only https://)"
        }
        let rest = publicURL.dropFirst("https://".count)
        if rest.contains("?") || rest.contains("#") {
            return "it has a query or fragment (the SDKs refuse both)"
        }
        let authority = rest.prefix { $0 != "/" }
        if authority.contains("@") {
            return "it has credentials (the SDKs refuse them)"
        }
        // The port after the host (an IPv6 literal's colons are inside its brackets).
        let afterHost = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority
        if let colon = afterHost.firstIndex(of: ":") {
            let port = afterHost[afterHost.index(after: colon)...]
            if port != "443" {
                return "its port is \(port) (the Android SDK takes only 443; iOS any HTTPS port)"
            }
        }
        return nil
    }
}
