import Core
import Model

/// The reads of what visits leave on SQLite: clicks and handoffs.
extension SQLiteQueries {
    // MARK: clicks

    static let clickColumns =
        "id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash, os_version, country, variant"
    static let selectClick = "SELECT \(clickColumns) FROM clicks WHERE id = ?1"

    static func decodeClick(_ s: SQLiteStatement) throws(StoreError) -> Click {
        guard let kind = ClickKind(rawValue: s.text(5)) else { throw ModelCodec.corrupt("clicks.kind") }
        guard let platform = VisitorPlatform(rawValue: s.text(6)) else {
            throw ModelCodec.corrupt("clicks.platform")
        }
        let dynamic =
            s.isNull(8) ? [] : try s.withBytes(8) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
        return Click(
            id: s.text(0), linkId: s.text(1), appId: s.optionalText(2), domain: s.text(3), at: s.int64(4), kind: kind,
            platform: platform, inAppBrowser: s.optionalText(7), dynamic: dynamic, sourceHash: s.optionalBlob(9),
            osVersion: s.optionalText(10), country: s.optionalText(11),
            variant: s.isNull(12) ? nil : Int(s.int64(12)))
    }

    /// A scan of the clicks (they have no index on their id, decision 0010): for tools
    /// and tests, never a request path.
    func click(id: String) throws(StoreError) -> Click? {
        try db.queryFirst(Self.selectClick, { $0.bind(1, id) }, row: Self.decodeClick)
    }

    // MARK: handoffs

    static let selectHandoff = """
        SELECT token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code, metadata, dynamic,
               created_at, expires_at, claimed_instance, claimed_open
        FROM handoffs WHERE token_hash = ?1
        """

    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff? {
        try db.queryFirst(Self.selectHandoff, { $0.bind(1, tokenHash) }) { s throws(StoreError) in
            guard let platform = Platform(rawValue: s.text(3)) else { throw ModelCodec.corrupt("handoffs.platform") }
            let metadata = try s.withBytes(8) { b throws(StoreError) in
                try ModelCodec.decodeJSON(b, column: "handoffs.metadata")
            }
            let dynamic =
                s.isNull(9) ? [] : try s.withBytes(9) { b throws(StoreError) in try ModelCodec.decodePairs(b) }
            let snapshot = HandoffSnapshot(
                linkId: s.text(4), shortUrl: s.text(5), route: s.text(6), referralCode: s.optionalText(7),
                metadata: metadata, dynamic: dynamic)
            return Handoff(
                tokenHash: s.blob(0), clickId: s.text(1), appId: s.text(2), platform: platform, snapshot: snapshot,
                createdAt: s.int64(10), expiresAt: s.int64(11), claimedByInstance: s.optionalText(12),
                claimedByOpen: s.optionalText(13))
        }
    }
}
