import Core
import Model

/// The reads of what visits leave on PostgreSQL: clicks and handoffs.
extension PGQueries {
    // MARK: clicks

    static let clickColumns =
        "id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash, os_version, country, variant"
    /// Every day's partition is probed (`clicks_id`): for tools and tests, never a request path.
    static let selectClick = "SELECT \(clickColumns) FROM clicks WHERE id = $1 LIMIT 1"

    static func decodeClick(_ r: PGResult, _ i: Int) throws(StoreError) -> Click {
        guard let kind = ClickKind(rawValue: r.text(i, 5)) else { throw ModelCodec.corrupt("clicks.kind") }
        guard let platform = VisitorPlatform(rawValue: r.text(i, 6)) else {
            throw ModelCodec.corrupt("clicks.platform")
        }
        let dynamic =
            r.isNull(i, 8) ? [] : try r.withBytes(i, 8) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
        return Click(
            id: r.text(i, 0), linkId: r.text(i, 1), appId: r.optionalText(i, 2), domain: r.text(i, 3), at: r.int(i, 4),
            kind: kind, platform: platform, inAppBrowser: r.optionalText(i, 7), dynamic: dynamic,
            sourceHash: r.optionalBytes(i, 9), osVersion: r.optionalText(i, 10), country: r.optionalText(i, 11),
            variant: r.isNull(i, 12) ? nil : Int(r.int(i, 12)))
    }

    func click(id: String) throws(StoreError) -> Click? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        return try Self.first(db.run("pgq_click", Self.selectClick, p), Self.decodeClick)
    }

    // MARK: handoffs

    static let selectHandoff = """
        SELECT token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code, metadata, dynamic,
               created_at, expires_at, claimed_instance, claimed_open
        FROM handoffs WHERE token_hash = $1
        """

    static func decodeHandoff(_ r: PGResult, _ i: Int) throws(StoreError) -> Handoff {
        guard let platform = Platform(rawValue: r.text(i, 3)) else { throw ModelCodec.corrupt("handoffs.platform") }
        let metadata = try r.withBytes(i, 8) { b throws(StoreError) in
            try ModelCodec.decodeJSON(b, column: "handoffs.metadata")
        }
        let dynamic =
            r.isNull(i, 9) ? [] : try r.withBytes(i, 9) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
        let snapshot = HandoffSnapshot(
            linkId: r.text(i, 4), shortUrl: r.text(i, 5), route: r.text(i, 6), referralCode: r.optionalText(i, 7),
            metadata: metadata, dynamic: dynamic)
        return Handoff(
            tokenHash: r.bytes(i, 0), clickId: r.text(i, 1), appId: r.text(i, 2), platform: platform,
            snapshot: snapshot, createdAt: r.int(i, 10), expiresAt: r.int(i, 11),
            claimedByInstance: r.optionalText(i, 12), claimedByOpen: r.optionalText(i, 13))
    }

    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff? {
        try willQuery()
        var p = PGParams()
        p.bytes(tokenHash)
        return try Self.first(db.run("pgq_handoff", Self.selectHandoff, p), Self.decodeHandoff)
    }
}
