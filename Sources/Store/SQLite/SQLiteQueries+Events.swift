import Core
import Model

extension SQLiteQueries {
    // MARK: clicks

    static let clickColumns =
        "id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash, os_version, country"
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
            osVersion: s.optionalText(10), country: s.optionalText(11))
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

    // MARK: open events and instances

    static let openColumns = """
        id, app_id, instance_id, event_id, idempotency_key_hash, request_hash, platform, matched_by, first_open, \
        sdk_version, link_id, click_id, at, stored_response, receipt, receipt_expires_at, receipt_input
        """
    static let selectOpen = "SELECT \(openColumns) FROM open_events WHERE id = ?1"
    static let selectOpenByEvent = "SELECT \(openColumns) FROM open_events WHERE app_id = ?1 AND event_id = ?2"
    /// The `length` term names the partial index `open_events_idempotency`.
    static let selectOpenByIdempotency = """
        SELECT \(openColumns) FROM open_events
        WHERE app_id = ?1 AND idempotency_key_hash = ?2 AND length(idempotency_key_hash) > 0
        """
    /// An event whose Idempotency-Key was its own eventId (kept as an empty blob).
    static let selectOpenByOwnKey = """
        SELECT \(openColumns) FROM open_events
        WHERE app_id = ?1 AND event_id = ?2 AND length(idempotency_key_hash) = 0
        """
    static let selectRecentOpens =
        "SELECT \(openColumns) FROM open_events WHERE app_id = ?1 AND at >= ?2 ORDER BY at DESC, id DESC LIMIT ?3"

    static func decodeOpen(_ s: SQLiteStatement) throws(StoreError) -> OpenEvent {
        guard let platform = Platform(rawValue: s.text(6)) else { throw ModelCodec.corrupt("open_events.platform") }
        guard let matchedBy = MatchType(rawValue: s.text(7)) else {
            throw ModelCodec.corrupt("open_events.matched_by")
        }
        let eventId = s.text(3)
        // An empty blob stands for "the key was the eventId" (see SchemaV1).
        let keyHash = s.optionalBlob(4).map { $0.isEmpty ? SHA256.hash(eventId) : $0 }
        return OpenEvent(
            id: s.text(0), appId: s.text(1), appInstanceId: s.text(2), eventId: eventId,
            idempotencyKeyHash: keyHash, requestHash: s.blob(5), platform: platform, matchedBy: matchedBy,
            firstOpen: s.bool(8), sdkVersion: s.text(9), linkId: s.optionalText(10), clickId: s.optionalText(11),
            at: s.int64(12), storedResponse: s.blob(13), receipt: s.optionalBlob(14),
            receiptExpiresAt: s.isNull(15) ? nil : s.int64(15), receiptInput: s.optionalBlob(16))
    }

    func openEvent(id: String) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(Self.selectOpen, { $0.bind(1, id) }, row: Self.decodeOpen)
    }

    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(
            Self.selectOpenByEvent,
            { s in
                s.bind(1, app)
                s.bind(2, eventId)
            }, row: Self.decodeOpen)
    }

    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(
            Self.selectOpenByIdempotency,
            { s in
                s.bind(1, app)
                s.bind(2, idempotencyKeyHash)
            }, row: Self.decodeOpen)
    }

    static let selectInstance = """
        SELECT app_id, instance_id, platform, first_open_id, created_at
        FROM app_instances WHERE app_id = ?1 AND instance_id = ?2
        """

    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance? {
        try db.queryFirst(
            Self.selectInstance,
            { s in
                s.bind(1, app)
                s.bind(2, instance)
            }
        ) { s throws(StoreError) in
            guard let platform = Platform(rawValue: s.text(2)) else {
                throw ModelCodec.corrupt("app_instances.platform")
            }
            return AppInstance(
                appId: s.text(0), instanceId: s.text(1), platform: platform, firstOpenId: s.optionalText(3),
                createdAt: s.int64(4))
        }
    }

    // MARK: analytics

    /// Whole hours: the hour that holds `since` counts in full (see `Store.analytics`).
    static let countClicks = """
        SELECT platform, kind, sum(count) FROM click_counts WHERE app_id = ?1 AND hour >= ?2
        GROUP BY platform, kind ORDER BY platform, kind
        """
    static let countOpens = """
        SELECT matched_by, first_open, count(*) FROM open_events WHERE app_id = ?1 AND at >= ?2
        GROUP BY matched_by, first_open ORDER BY matched_by, first_open
        """

    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics {
        let bind: (SQLiteStatement) -> Void = { s in
            s.bind(1, app)
            s.bind(2, since)
        }
        try willReadCounts()
        let clicks = try db.queryAll(
            Self.countClicks,
            { s in
                s.bind(1, app)
                s.bind(2, ClickCounter.hour(since))
            }
        ) { s throws(StoreError) in
            guard let platform = VisitorPlatform(rawValue: s.text(0)), let kind = ClickKind(rawValue: s.text(1)) else {
                throw ModelCodec.corrupt("click_counts.kind")
            }
            return AppAnalytics.ClickCount(platform: platform, kind: kind, count: s.int(2))
        }
        let opens = try db.queryAll(Self.countOpens, bind) { s throws(StoreError) in
            guard let matchedBy = MatchType(rawValue: s.text(0)) else {
                throw ModelCodec.corrupt("open_events.matched_by")
            }
            return AppAnalytics.OpenCount(matchedBy: matchedBy, firstOpen: s.bool(1), count: s.int(2))
        }
        let newest =
            recent > 0
            ? try db.queryAll(
                Self.selectRecentOpens,
                { s in
                    s.bind(1, app)
                    s.bind(2, since)
                    s.bind(3, recent)
                }, row: Self.decodeOpen)
            : []
        return AppAnalytics(clicks: clicks, opens: opens, recent: newest)
    }

    /// Ranges of the primary keys (link, day, ...): the rows come in key order.
    static let selectLinkClickCounts = """
        SELECT day, platform, kind, in_app_browser, count FROM link_click_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, platform, kind, in_app_browser
        """
    static let selectLinkCountryCounts = """
        SELECT day, country, count FROM link_country_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, country
        """
    static let selectLinkReferrerCounts = """
        SELECT day, referrer, count FROM link_referrer_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, referrer
        """
    static let selectLinkOpenCounts = """
        SELECT day, matched_by, first_open, count FROM link_open_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, matched_by, first_open
        """
    static let selectLinkConversionCounts = """
        SELECT day, type, currency, count, amount, amount_high FROM link_conversion_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, type, currency
        """

    func linkAnalytics(link: String, fromDay: Int64, throughDay: Int64) throws(StoreError) -> LinkAnalytics {
        let bind: (SQLiteStatement) -> Void = { s in
            s.bind(1, link)
            s.bind(2, fromDay)
            s.bind(3, throughDay)
        }
        try willReadCounts()
        let clicks = try db.queryAll(Self.selectLinkClickCounts, bind) { s throws(StoreError) in
            guard let platform = VisitorPlatform(rawValue: s.text(1)), let kind = ClickKind(rawValue: s.text(2)) else {
                throw ModelCodec.corrupt("link_click_counts.kind")
            }
            let browser = s.text(3)
            return LinkAnalytics.ClickCount(
                day: s.int64(0), platform: platform, kind: kind, inAppBrowser: browser.isEmpty ? nil : browser,
                count: s.int(4))
        }
        let countries = try db.queryAll(Self.selectLinkCountryCounts, bind) { s in
            let country = s.text(1)
            return LinkAnalytics.CountryCount(
                day: s.int64(0), country: country.isEmpty ? nil : country, count: s.int(2))
        }
        let referrers = try db.queryAll(Self.selectLinkReferrerCounts, bind) { s in
            let site = s.text(1)
            return LinkAnalytics.ReferrerCount(day: s.int64(0), referrer: site.isEmpty ? nil : site, count: s.int(2))
        }
        let opens = try db.queryAll(Self.selectLinkOpenCounts, bind) { s throws(StoreError) in
            guard let matchedBy = MatchType(rawValue: s.text(1)) else {
                throw ModelCodec.corrupt("link_open_counts.matched_by")
            }
            return LinkAnalytics.OpenCount(day: s.int64(0), matchedBy: matchedBy, firstOpen: s.bool(2), count: s.int(3))
        }
        let conversions = try db.queryAll(Self.selectLinkConversionCounts, bind) { s throws(StoreError) in
            guard let type = ConversionType(rawValue: s.text(1)) else {
                throw ModelCodec.corrupt("link_conversion_counts.type")
            }
            let currency = s.text(2)
            return LinkAnalytics.ConversionCount(
                day: s.int64(0), type: type, currency: currency.isEmpty ? nil : currency, count: s.int(3),
                amount: StoredAmount.join(high: s.int64(5), low: s.int64(4)))
        }
        return LinkAnalytics(
            clicks: clicks, countries: countries, referrers: referrers, opens: opens, conversions: conversions)
    }
}
