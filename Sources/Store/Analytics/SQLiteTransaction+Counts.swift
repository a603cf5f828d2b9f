import Model

/// The batch's counts on SQLite: what `insertClick`, `countPreview`, the open events and
/// the conversions counted in memory, added to the aggregates once per batch.
extension SQLiteTransaction {
    static let upsertCountSQL = """
        INSERT INTO click_counts (app_id, hour, platform, kind, count) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (app_id, hour, platform, kind) DO UPDATE SET count = count + excluded.count
        """

    static let upsertLinkClickCountSQL = """
        INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6)
        ON CONFLICT (link_id, day, platform, kind, in_app_browser) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkCountryCountSQL = """
        INSERT INTO link_country_counts (link_id, day, country, count) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (link_id, day, country) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkReferrerCountSQL = """
        INSERT INTO link_referrer_counts (link_id, day, referrer, count) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (link_id, day, referrer) DO UPDATE SET count = count + excluded.count
        """
    static let upsertLinkOpenCountSQL = """
        INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (link_id, day, matched_by, first_open) DO UPDATE SET count = count + excluded.count
        """

    /// The amount in two columns (`StoredAmount`, schema 15): both low parts are below
    /// 10^18, so their sum fits 64 bits; what passes 10^18 is carried into `amount_high`.
    static let upsertLinkConversionCountSQL = """
        INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount, amount_high)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT (link_id, day, type, currency) DO UPDATE SET count = count + excluded.count,
            amount = (amount + excluded.amount) % 1000000000000000000,
            amount_high = amount_high + excluded.amount_high + (amount + excluded.amount) / 1000000000000000000
        """

    static let upsertLinkVariantCountSQL = """
        INSERT INTO link_variant_counts (link_id, day, variant, count) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (link_id, day, variant) DO UPDATE SET count = count + excluded.count
        """
    /// As `link_conversion_counts`, by arm too (schema 17).
    static let upsertLinkVariantConversionCountSQL = """
        INSERT INTO link_variant_conversion_counts (link_id, day, variant, type, currency, count, amount, amount_high)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (link_id, day, variant, type, currency) DO UPDATE SET count = count + excluded.count,
            amount = (amount + excluded.amount) % 1000000000000000000,
            amount_high = amount_high + excluded.amount_high + (amount + excluded.amount) / 1000000000000000000
        """

    /// Adds the pending counts to `click_counts` and the links' daily counts (one
    /// UPSERT per key) and forgets them. Called before COMMIT
    /// and before a read of the counts through this transaction. On failure the counts
    /// stay pending and the caller rolls back.
    func flushCounts() throws(StoreError) {
        if counts.isEmpty { return }
        for (key, count) in counts.entries {
            try db.execute(Self.upsertCountSQL) { s in
                s.bind(1, key.appId)
                s.bind(2, key.hour)
                s.bind(3, key.platform.rawValue)
                s.bind(4, key.kind.rawValue)
                s.bind(5, count)
            }
        }
        for (key, count) in counts.links.clicks {
            try db.execute(Self.upsertLinkClickCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.platform.rawValue)
                s.bind(4, key.kind.rawValue)
                s.bind(5, key.inAppBrowser)
                s.bind(6, count)
            }
        }
        for (key, count) in counts.links.countries {
            try db.execute(Self.upsertLinkCountryCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.country)
                s.bind(4, count)
            }
        }
        for (key, count) in counts.links.referrers {
            try db.execute(Self.upsertLinkReferrerCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.referrer)
                s.bind(4, count)
            }
        }
        for (key, count) in counts.links.opens {
            try db.execute(Self.upsertLinkOpenCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.matchedBy.rawValue)
                s.bind(4, key.firstOpen)
                s.bind(5, count)
            }
        }
        for (key, count) in counts.links.variants {
            try db.execute(Self.upsertLinkVariantCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.variant)
                s.bind(4, count)
            }
        }
        // In key order as on PostgreSQL (one writer here: for symmetry, not for locks).
        for (key, sum) in counts.links.sortedConversions {
            try db.execute(Self.upsertLinkConversionCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.type.rawValue)
                s.bind(4, key.currency)
                let amount = StoredAmount.split(sum.amount)
                s.bind(5, sum.count)
                s.bind(6, amount.low)
                s.bind(7, amount.high)
            }
        }
        for (key, sum) in counts.links.sortedVariantConversions {
            try db.execute(Self.upsertLinkVariantConversionCountSQL) { s in
                s.bind(1, key.linkId)
                s.bind(2, key.day)
                s.bind(3, key.variant)
                s.bind(4, key.type.rawValue)
                s.bind(5, key.currency)
                let amount = StoredAmount.split(sum.amount)
                s.bind(6, sum.count)
                s.bind(7, amount.low)
                s.bind(8, amount.high)
            }
        }
        counts.removeAll()
    }
}
