import Model

/// `StoreReader` over one connection: the SQL of every read.
///
/// Used as is by transactions (on the writer's connection, so reads see the
/// batch's earlier writes) and subclassed by `SQLiteReader`, which answers
/// domains, apps and links from its caches first. The methods that subclass
/// overrides live in this class body; the rest are in extensions by concern.
class SQLiteQueries: StoreReader {
    let db: SQLiteConnection

    init(db: SQLiteConnection) {
        self.db = db
    }

    /// Only readers with a link cache count link changes (`SQLiteReader` overrides this).
    func linksVersion(host: String) -> UInt64? { nil }

    /// Called before reading `click_counts`: the writer's transaction first writes
    /// the counts its batch still holds in memory, so its reads see its writes.
    func willReadCounts() throws(StoreError) {}

    /// In the class body so that the writer's transaction can remember a miss.
    func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]) throws(StoreError)
        -> OpenEvent?
    {
        if let byEvent = try openEvent(app: app, eventId: eventId) { return byEvent }
        // The key is someone's eventId: that event, if it was its own key. (When the key
        // is this request's eventId, the lookup above already said there is none.)
        if idempotencyKey != eventId,
            let byOwnKey = try db.queryFirst(
                Self.selectOpenByOwnKey,
                { s in
                    s.bind(1, app)
                    s.bind(2, idempotencyKey)
                }, row: Self.decodeOpen)
        {
            return byOwnKey
        }
        return try openEvent(app: app, idempotencyKeyHash: keyHash)
    }

    // MARK: domains

    static let domainColumns =
        "hostname, verified, deep_view_enabled, root_url, not_found_url, created_at, updated_at, track_conversions, pass_query, alternate_hostname"
    static let selectDomain = "SELECT \(domainColumns) FROM domains WHERE hostname = ?1"
    /// The domain a request's host names: its hostname, else its alternate (decision 0033 §4).
    static let selectServedDomain = """
        SELECT \(domainColumns) FROM domains WHERE hostname = ?1 OR alternate_hostname = ?1
        ORDER BY hostname = ?1 DESC LIMIT 1
        """
    static let selectDomains = "SELECT \(domainColumns) FROM domains ORDER BY hostname"

    static func decodeDomain(_ s: SQLiteStatement) -> Domain {
        Domain(
            hostname: s.text(0), verified: s.bool(1), deepViewEnabled: s.bool(2), rootUrl: s.optionalText(3),
            notFoundUrl: s.optionalText(4), trackConversions: s.bool(7), passQuery: s.bool(8),
            alternateHostname: s.optionalText(9), createdAt: s.int64(5), updatedAt: s.int64(6))
    }

    func domain(_ hostname: String) throws(StoreError) -> Domain? {
        try db.queryFirst(Self.selectDomain, { $0.bind(1, hostname) }, row: Self.decodeDomain)
    }

    func domains() throws(StoreError) -> [Domain] {
        try db.queryAll(Self.selectDomains, row: Self.decodeDomain)
    }

    func domain(servedAt host: String) throws(StoreError) -> Domain? {
        try db.queryFirst(Self.selectServedDomain, { $0.bind(1, host) }, row: Self.decodeDomain)
    }

    // MARK: apps

    static let appColumns =
        "id, name, enabled, icon_url, ios, android, handoff_lifetime_seconds, key_overlap_seconds, created_at, updated_at"
    static let selectApp = "SELECT \(appColumns) FROM mobile_apps WHERE id = ?1"
    static let selectApps = "SELECT \(appColumns) FROM mobile_apps ORDER BY id"
    static let selectAppsAttached = """
        SELECT \(appColumns) FROM mobile_apps
        WHERE id IN (SELECT app_id FROM app_domains WHERE hostname = ?1) ORDER BY id
        """
    static let selectAppDomains = "SELECT hostname FROM app_domains WHERE app_id = ?1 ORDER BY position"
    static let selectAllAppDomains = "SELECT app_id, hostname FROM app_domains ORDER BY app_id, position"

    /// An app row without its domains (filled by the caller).
    static func decodeApp(_ s: SQLiteStatement) throws(StoreError) -> MobileApp {
        let ios: IOSPlatform? =
            s.isNull(4) ? nil : try s.withBytes(4) { b throws(StoreError) in try ModelCodec.decodeIOS(b) }
        let android: AndroidPlatform? =
            s.isNull(5) ? nil : try s.withBytes(5) { b throws(StoreError) in try ModelCodec.decodeAndroid(b) }
        return MobileApp(
            id: s.text(0), name: s.text(1), enabled: s.bool(2), iconUrl: s.optionalText(3), ios: ios,
            android: android, domains: [], handoffLifetimeSeconds: s.int(6), keyOverlapSeconds: s.int(7),
            createdAt: s.int64(8), updatedAt: s.int64(9))
    }

    func app(_ id: String) throws(StoreError) -> MobileApp? {
        guard var app = try db.queryFirst(Self.selectApp, { $0.bind(1, id) }, row: Self.decodeApp) else {
            return nil
        }
        app.domains = try db.queryAll(Self.selectAppDomains, { $0.bind(1, id) }) { s in s.text(0) }
        return app
    }

    func apps() throws(StoreError) -> [MobileApp] {
        try withDomains(try db.queryAll(Self.selectApps, row: Self.decodeApp))
    }

    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        let apps = try db.queryAll(Self.selectAppsAttached, { $0.bind(1, hostname) }, row: Self.decodeApp)
        var result: [MobileApp] = []
        for var app in apps {
            app.domains = try db.queryAll(Self.selectAppDomains, { $0.bind(1, app.id) }) { s in s.text(0) }
            result.append(app)
        }
        return result
    }

    /// Fills `domains` of every app with one query.
    private func withDomains(_ apps: [MobileApp]) throws(StoreError) -> [MobileApp] {
        var byApp: [String: [String]] = [:]
        for (app, host) in try db.queryAll(Self.selectAllAppDomains, row: { s in (s.text(0), s.text(1)) }) {
            byApp[app, default: []].append(host)
        }
        return apps.map { app in
            var app = app
            app.domains = byApp[app.id] ?? []
            return app
        }
    }

    /// Every domain and app, for the writer's snapshot.
    func loadCatalog() throws(StoreError) -> CatalogSnapshot {
        CatalogSnapshot(domains: try domains(), apps: try apps(), inAppEscapes: try storedInAppEscapeSettings())
    }

    /// The workspace's switches of the in-app escapes; a loop's reader answers from its snapshot.
    func inAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings { try storedInAppEscapeSettings() }

    // MARK: links (cached by readers)

    /// The columns a link's write sets.
    static let linkInsertColumns = """
        id, domain, key, url, enabled, app_id, route, referral_code, metadata, dynamic_keys, deep_view, \
        has_preview, preview_title, preview_description, preview_image_url, created_at, updated_at, track_conversions, \
        options, external_id
        """
    /// What a read of a link selects: the written columns and its tags' ids (issue 35).
    static let linkColumns = """
        \(linkInsertColumns), \
        (SELECT group_concat(tag_id, ' ') FROM link_tags WHERE link_tags.link_id = links.id)
        """
    static let selectLinkByKey = "SELECT \(linkColumns) FROM links WHERE domain = ?1 AND key = ?2"

    static func decodeLink(_ s: SQLiteStatement) throws(StoreError) -> Link {
        var mobile: MobilePayload?
        if !s.isNull(5) {
            let metadata =
                s.isNull(8)
                ? .object([])
                : try s.withBytes(8) { b throws(StoreError) in try ModelCodec.decodeJSON(b, column: "metadata") }
            let dynamicKeys =
                s.isNull(9)
                ? []
                : try s.withBytes(9) { b throws(StoreError) in
                    try ModelCodec.decodeStrings(b, column: "dynamic_keys")
                }
            mobile = MobilePayload(
                appId: s.text(5), route: s.text(6), referralCode: s.optionalText(7), metadata: metadata,
                dynamicKeys: dynamicKeys, deepView: s.bool(10))
        }
        let preview =
            s.bool(11)
            ? LinkPreview(title: s.optionalText(12), description: s.optionalText(13), imageUrl: s.optionalText(14))
            : nil
        var options: LinkOptions?
        if !s.isNull(18) {
            options = try s.withBytes(18) { b throws(StoreError) in
                try LinkOptionsCodec.decode(b, externalId: s.optionalText(19), tagIds: s.optionalText(20))
            }
        } else if !s.isNull(19) || !s.isNull(20) {
            options = try LinkOptionsCodec.decode(nil, externalId: s.optionalText(19), tagIds: s.optionalText(20))
        }
        return Link(
            id: s.text(0), domain: s.text(1), key: s.text(2), url: s.text(3), enabled: s.bool(4), mobile: mobile,
            preview: preview, trackConversions: s.isNull(17) ? nil : s.bool(17), options: options,
            createdAt: s.int64(15), updatedAt: s.int64(16))
    }

    func link(host: String, key: String) throws(StoreError) -> Link? {
        try db.queryFirst(
            Self.selectLinkByKey,
            { s in
                s.bind(1, host)
                s.bind(2, key)
            }, row: Self.decodeLink)
    }
}
