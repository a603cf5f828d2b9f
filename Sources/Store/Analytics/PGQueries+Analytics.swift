import Core
import Model

/// The counts' reads on PostgreSQL (pending counts flushed first: `willReadCounts`).
extension PGQueries {
    // MARK: analytics

    /// Whole hours: the hour that holds `since` counts in full (see `Store.analytics`).
    static let countClicks = """
        SELECT platform, kind, sum(count)::bigint FROM click_counts WHERE app_id = $1 AND hour >= $2
        GROUP BY platform, kind ORDER BY platform COLLATE "C", kind COLLATE "C"
        """
    static let countOpens = """
        SELECT matched_by, first_open, count(*) FROM open_events WHERE app_id = $1 AND at >= $2
        GROUP BY matched_by, first_open ORDER BY matched_by COLLATE "C", first_open
        """

    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics {
        try willQuery()
        try willReadCounts()
        var hours = PGParams()
        hours.text(app)
        hours.int(ClickCounter.hour(since))
        let clicks = try Self.all(db.run("pgq_count_clicks", Self.countClicks, hours)) { r, i throws(StoreError) in
            guard let platform = VisitorPlatform(rawValue: r.text(i, 0)), let kind = ClickKind(rawValue: r.text(i, 1))
            else { throw ModelCodec.corrupt("click_counts.kind") }
            return AppAnalytics.ClickCount(platform: platform, kind: kind, count: Int(r.int(i, 2)))
        }
        var p = PGParams()
        p.text(app)
        p.int(since)
        let opens = try Self.all(db.run("pgq_count_opens", Self.countOpens, p)) { r, i throws(StoreError) in
            guard let matchedBy = MatchType(rawValue: r.text(i, 0)) else {
                throw ModelCodec.corrupt("open_events.matched_by")
            }
            return AppAnalytics.OpenCount(matchedBy: matchedBy, firstOpen: r.bool(i, 1), count: Int(r.int(i, 2)))
        }
        var newest: [OpenEvent] = []
        if recent > 0 {
            p.int(Int64(recent))
            newest = try Self.all(db.run("pgq_recent_opens", Self.selectRecentOpens, p), Self.decodeOpen)
        }
        return AppAnalytics(clicks: clicks, opens: opens, recent: newest)
    }

    /// Ranges of the primary keys, whose text columns sort byte by byte (`PGSchemaV4`).
    static let selectLinkClickCounts = """
        SELECT day, platform, kind, in_app_browser, count FROM link_click_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, platform, kind, in_app_browser
        """
    static let selectLinkCountryCounts = """
        SELECT day, country, count FROM link_country_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, country
        """
    static let selectLinkReferrerCounts = """
        SELECT day, referrer, count FROM link_referrer_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, referrer
        """
    static let selectLinkOpenCounts = """
        SELECT day, matched_by, first_open, count FROM link_open_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, matched_by, first_open
        """
    static let selectLinkConversionCounts = """
        SELECT day, type, currency, count, amount, amount_high FROM link_conversion_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, type, currency
        """
    static let selectLinkVariantCounts = """
        SELECT day, variant, count FROM link_variant_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, variant
        """
    static let selectLinkVariantConversionCounts = """
        SELECT day, variant, type, currency, count, amount, amount_high FROM link_variant_conversion_counts
        WHERE link_id = $1 AND day >= $2 AND day <= $3
        ORDER BY link_id, day, variant, type, currency
        """

    func linkAnalytics(link: String, fromDay: Int64, throughDay: Int64) throws(StoreError) -> LinkAnalytics {
        try willQuery()
        try willReadCounts()
        var p = PGParams()
        p.text(link)
        p.int(fromDay)
        p.int(throughDay)
        let clicks = try Self.all(db.run("pgq_link_click_counts", Self.selectLinkClickCounts, p)) {
            r, i throws(StoreError) in
            guard let platform = VisitorPlatform(rawValue: r.text(i, 1)), let kind = ClickKind(rawValue: r.text(i, 2))
            else { throw ModelCodec.corrupt("link_click_counts.kind") }
            let browser = r.text(i, 3)
            return LinkAnalytics.ClickCount(
                day: r.int(i, 0), platform: platform, kind: kind, inAppBrowser: browser.isEmpty ? nil : browser,
                count: Int(r.int(i, 4)))
        }
        let countries = try Self.all(db.run("pgq_link_country_counts", Self.selectLinkCountryCounts, p)) {
            r, i throws(StoreError) in
            let country = r.text(i, 1)
            return LinkAnalytics.CountryCount(
                day: r.int(i, 0), country: country.isEmpty ? nil : country, count: Int(r.int(i, 2)))
        }
        let referrers = try Self.all(db.run("pgq_link_referrer_counts", Self.selectLinkReferrerCounts, p)) {
            r, i throws(StoreError) in
            let site = r.text(i, 1)
            return LinkAnalytics.ReferrerCount(
                day: r.int(i, 0), referrer: site.isEmpty ? nil : site, count: Int(r.int(i, 2)))
        }
        let opens = try Self.all(db.run("pgq_link_open_counts", Self.selectLinkOpenCounts, p)) {
            r, i throws(StoreError) in
            guard let matchedBy = MatchType(rawValue: r.text(i, 1)) else {
                throw ModelCodec.corrupt("link_open_counts.matched_by")
            }
            return LinkAnalytics.OpenCount(
                day: r.int(i, 0), matchedBy: matchedBy, firstOpen: r.bool(i, 2), count: Int(r.int(i, 3)))
        }
        let conversions = try Self.all(db.run("pgq_link_conversion_counts", Self.selectLinkConversionCounts, p)) {
            r, i throws(StoreError) in
            guard let type = ConversionType(rawValue: r.text(i, 1)) else {
                throw ModelCodec.corrupt("link_conversion_counts.type")
            }
            let currency = r.text(i, 2)
            return LinkAnalytics.ConversionCount(
                day: r.int(i, 0), type: type, currency: currency.isEmpty ? nil : currency, count: Int(r.int(i, 3)),
                amount: StoredAmount.join(high: r.int(i, 5), low: r.int(i, 4)))
        }
        let variantClicks = try Self.all(db.run("pgq_link_variant_counts", Self.selectLinkVariantCounts, p)) {
            r, i throws(StoreError) in
            LinkAnalytics.VariantClickCount(day: r.int(i, 0), variant: Int(r.int(i, 1)), count: Int(r.int(i, 2)))
        }
        let variantConversions = try Self.all(
            db.run("pgq_link_variant_conversion_counts", Self.selectLinkVariantConversionCounts, p)
        ) { r, i throws(StoreError) in
            guard let type = ConversionType(rawValue: r.text(i, 2)) else {
                throw ModelCodec.corrupt("link_variant_conversion_counts.type")
            }
            let currency = r.text(i, 3)
            return LinkAnalytics.VariantConversionCount(
                day: r.int(i, 0), variant: Int(r.int(i, 1)), type: type, currency: currency.isEmpty ? nil : currency,
                count: Int(r.int(i, 4)), amount: StoredAmount.join(high: r.int(i, 6), low: r.int(i, 5)))
        }
        return LinkAnalytics(
            clicks: clicks, countries: countries, referrers: referrers, opens: opens, conversions: conversions,
            variantClicks: variantClicks, variantConversions: variantConversions)
    }
}
