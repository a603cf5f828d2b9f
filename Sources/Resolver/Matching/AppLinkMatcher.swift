import Model
import Store

/// `exact_app_link`: an installed app opened a short URL directly.
///
/// Eligible when the host is a verified domain attached to the app, the path is
/// one segment naming an enabled link of this app with a mobile payload. The
/// answer is the link's *current* payload (unlike a handoff's click-time
/// snapshot) with dynamic values from the deep link's own query. Everything
/// else is nil, which the resolver answers with 200 `none`, never a 4xx.
enum AppLinkMatcher {
    static func match(_ deepLink: String, app: MobileApp, reader: any CatalogReading & LinkReading) throws(StoreError)
        -> Match?
    {
        guard let dl = DeepLink.parse(deepLink) else { return nil }
        // A deep link on a domain's alternate hostname is the domain's (decision 0033 §4).
        guard let domain = try reader.domain(servedAt: dl.host), domain.verified, app.domains.contains(domain.hostname)
        else { return nil }
        guard let link = try reader.link(host: domain.hostname, key: dl.key), link.enabled, let payload = link.mobile,
            payload.appId == app.id
        else { return nil }
        let pairs = dl.query.map(QueryString.pairs) ?? []
        let dynamic = DynamicValues.filter(pairs, allowed: payload.dynamicKeys)
        return .current(link, payload: payload, matchedBy: .exactAppLink, clickId: nil, dynamic: dynamic)
    }
}
