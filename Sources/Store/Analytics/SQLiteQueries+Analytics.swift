import Core
import Model

/// The counts' reads on SQLite (pending counts flushed first: `willReadCounts`).
extension SQLiteQueries {
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
    static let selectLinkVariantCounts = """
        SELECT day, variant, count FROM link_variant_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, variant
        """
    static let selectLinkVariantConversionCounts = """
        SELECT day, variant, type, currency, count, amount, amount_high FROM link_variant_conversion_counts
        WHERE link_id = ?1 AND day >= ?2 AND day <= ?3
        ORDER BY link_id, day, variant, type, currency
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
        let variantClicks = try db.queryAll(Self.selectLinkVariantCounts, bind) { s in
            LinkAnalytics.VariantClickCount(day: s.int64(0), variant: s.int(1), count: s.int(2))
        }
        let variantConversions = try db.queryAll(Self.selectLinkVariantConversionCounts, bind) {
            s throws(StoreError) in
            guard let type = ConversionType(rawValue: s.text(2)) else {
                throw ModelCodec.corrupt("link_variant_conversion_counts.type")
            }
            let currency = s.text(3)
            return LinkAnalytics.VariantConversionCount(
                day: s.int64(0), variant: s.int(1), type: type, currency: currency.isEmpty ? nil : currency,
                count: s.int(4), amount: StoredAmount.join(high: s.int64(6), low: s.int64(5)))
        }
        return LinkAnalytics(
            clicks: clicks, countries: countries, referrers: referrers, opens: opens, conversions: conversions,
            variantClicks: variantClicks, variantConversions: variantConversions)
    }
}
