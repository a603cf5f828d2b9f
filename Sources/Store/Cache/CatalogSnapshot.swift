import Model

/// Every domain and Mobile App, and the workspace's switches of the in-app escapes,
/// immutable once built: the hot path reads them from here without a query or a lock (see
/// `InvalidationLog` for how a reader gets the newest one safely).
///
/// Domains and apps are few (tens, maybe thousands), so the writer rebuilds the
/// whole snapshot after a batch that changed any of them.
final class CatalogSnapshot: Sendable {
    let domainsByHost: [String: Domain]
    /// Hostnames and alternate hostnames -> their domain: what a request's host serves.
    let domainsByServedHost: [String: Domain]
    /// Ordered by hostname.
    let domains: [Domain]
    let appsById: [String: MobileApp]
    /// Ordered by id.
    let apps: [MobileApp]
    /// hostname -> the apps attached to it, ordered by id.
    let appsByDomain: [String: [MobileApp]]
    /// The workspace's switches (decision 0033 §5): each in-app visit reads them here.
    let inAppEscapes: InAppEscapeSettings

    init(domains: [Domain], apps: [MobileApp], inAppEscapes: InAppEscapeSettings = .initial) {
        self.inAppEscapes = inAppEscapes
        self.domains = domains.sorted { $0.hostname < $1.hostname }
        self.apps = apps.sorted { $0.id < $1.id }
        var byHost: [String: Domain] = [:]
        for d in domains { byHost[d.hostname] = d }
        domainsByHost = byHost
        var served = byHost
        for d in domains {
            if let alternate = d.alternateHostname, served[alternate] == nil { served[alternate] = d }
        }
        domainsByServedHost = served
        var byId: [String: MobileApp] = [:]
        var byDomain: [String: [MobileApp]] = [:]
        for a in self.apps {
            byId[a.id] = a
            for host in a.domains { byDomain[host, default: []].append(a) }
        }
        appsById = byId
        appsByDomain = byDomain
    }

    static let empty = CatalogSnapshot(domains: [], apps: [])
}
