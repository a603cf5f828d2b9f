import Templates

/// Every URL the console links to or redirects to (the layout is fixed: the browser
/// tests and the benchmark use the same ones; `docs/console-contract.md`).
enum ConsolePaths {
    static let overview = LocalURL("/console/")!
    static let signIn = LocalURL("/console/sign-in")!
    static let signOut = LocalURL("/console/sign-out")!
    static let links = LocalURL("/console/links")!
    static let newLink = LocalURL("/console/links/new")!
    static let apps = LocalURL("/console/apps")!
    static let domains = LocalURL("/console/domains")!
    static let settings = LocalURL("/console/settings")!
    static let webhooks = LocalURL("/console/webhooks")!
    static let customers = LocalURL("/console/customers")!
    static let tags = LocalURL("/console/tags")!
    static let mainContent = LocalURL("#main")!

    static func link(_ id: String) -> LocalURL { path("/console/links/", id) }
    static func editLink(_ id: String) -> LocalURL { path("/console/links/", id, "/edit") }
    static func disableLink(_ id: String) -> LocalURL { path("/console/links/", id, "/disable") }
    static func enableLink(_ id: String) -> LocalURL { path("/console/links/", id, "/enable") }
    static func deleteLink(_ id: String) -> LocalURL { path("/console/links/", id, "/delete") }
    static func qrCode(_ id: String) -> LocalURL { path("/console/links/", id, "/qr.svg") }
    static func linkDays(_ id: String, _ days: Int) -> LocalURL { path("/console/links/", id, "?days=\(days)") }
    static func tag(_ id: String) -> LocalURL { path("/console/tags/", id) }
    static func deleteTag(_ id: String) -> LocalURL { path("/console/tags/", id, "/delete") }
    static func app(_ id: String) -> LocalURL { path("/console/apps/", id) }
    /// A customer's page by its external ID (an erased one's is `erased_<id>`).
    static func customer(_ externalId: String) -> LocalURL { path("/console/customers/", externalId) }
    static func customerList(cursor: String, limit: Int?) -> LocalURL {
        LocalURL(
            "/console/customers?cursor=" + FormBody.encode(cursor) + (limit.map { "&limit=\($0)" } ?? ""))!
    }
    static func rotateKeys(_ id: String) -> LocalURL { path("/console/apps/", id, "/keys/rotate") }
    static func webhook(_ id: String) -> LocalURL { path("/console/webhooks/", id) }
    static func testWebhook(_ id: String) -> LocalURL { path("/console/webhooks/", id, "/test") }

    /// `/console/links` with the list's query (`q`, `domain`, `tagId`, `after`), empty ones
    /// left out.
    static func linkList(q: String, domain: String, tagId: String = "", after: String?) -> LocalURL {
        var parts: [String] = []
        if !tagId.isEmpty { parts.append("tagId=" + FormBody.encode(tagId)) }
        if !q.isEmpty { parts.append("q=" + FormBody.encode(q)) }
        if !domain.isEmpty { parts.append("domain=" + FormBody.encode(domain)) }
        if let after { parts.append("after=" + FormBody.encode(after)) }
        return LocalURL("/console/links" + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&")))!
    }

    /// `prefix` + the id percent-encoded as one segment + `suffix`: always a valid
    /// `LocalURL`, whatever the id holds.
    private static func path(_ prefix: String, _ id: String, _ suffix: String = "") -> LocalURL {
        LocalURL(prefix + FormBody.encode(id) + suffix)!
    }
}
