import Model

/// Domains and apps: the SQL and the row decoders (the methods are in the class body,
/// which `PGReader` overrides).
extension PGQueries {
    static let domainColumns =
        "hostname, verified, deep_view_enabled, root_url, not_found_url, created_at, updated_at, track_conversions, pass_query, alternate_hostname"
    static let selectDomain = "SELECT \(domainColumns) FROM domains WHERE hostname = $1"
    /// The domain a request's host names: its hostname, else its alternate (decision 0033 §4).
    static let selectServedDomain = """
        SELECT \(domainColumns) FROM domains WHERE hostname = $1 OR alternate_hostname = $1
        ORDER BY hostname = $1 DESC LIMIT 1
        """
    static let selectDomains = "SELECT \(domainColumns) FROM domains ORDER BY hostname COLLATE \"C\""

    static func decodeDomain(_ r: PGResult, _ i: Int) -> Domain {
        Domain(
            hostname: r.text(i, 0), verified: r.bool(i, 1), deepViewEnabled: r.bool(i, 2),
            rootUrl: r.optionalText(i, 3), notFoundUrl: r.optionalText(i, 4), trackConversions: r.bool(i, 7),
            passQuery: r.bool(i, 8), alternateHostname: r.optionalText(i, 9),
            createdAt: r.int(i, 5), updatedAt: r.int(i, 6))
    }

    static let appColumns =
        "id, name, enabled, icon_url, ios, android, handoff_lifetime_seconds, key_overlap_seconds, created_at, updated_at"
    static let selectApp = "SELECT \(appColumns) FROM mobile_apps WHERE id = $1"
    static let selectApps = "SELECT \(appColumns) FROM mobile_apps ORDER BY id COLLATE \"C\""
    static let selectAppsAttached = """
        SELECT \(appColumns) FROM mobile_apps
        WHERE id IN (SELECT app_id FROM app_domains WHERE hostname = $1) ORDER BY id COLLATE "C"
        """
    static let selectAppDomains = "SELECT hostname FROM app_domains WHERE app_id = $1 ORDER BY position"
    static let selectAllAppDomains =
        "SELECT app_id, hostname FROM app_domains ORDER BY app_id COLLATE \"C\", position"

    /// An app row without its domains (filled by the caller).
    static func decodeApp(_ r: PGResult, _ i: Int) throws(StoreError) -> MobileApp {
        let ios: IOSPlatform? =
            r.isNull(i, 4) ? nil : try r.withBytes(i, 4) { b throws(StoreError) in try ModelCodec.decodeIOS(b) }
        let android: AndroidPlatform? =
            r.isNull(i, 5) ? nil : try r.withBytes(i, 5) { b throws(StoreError) in try ModelCodec.decodeAndroid(b) }
        return MobileApp(
            id: r.text(i, 0), name: r.text(i, 1), enabled: r.bool(i, 2), iconUrl: r.optionalText(i, 3), ios: ios,
            android: android, domains: [], handoffLifetimeSeconds: Int(r.int(i, 6)),
            keyOverlapSeconds: Int(r.int(i, 7)), createdAt: r.int(i, 8), updatedAt: r.int(i, 9))
    }

    /// The hostnames attached to app `id`, in their order.
    func appDomains(_ id: String) throws(StoreError) -> [String] {
        var p = PGParams()
        p.text(id)
        return try Self.all(db.run("pgq_app_domains", Self.selectAppDomains, p)) { r, i in r.text(i, 0) }
    }
}
