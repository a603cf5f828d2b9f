import Model

/// Deferred inserts: the held clicks and handoffs go in one statement per table, the
/// batch's counts (the apps' hours, the links' days) in one more, each a single
/// `INSERT ... SELECT FROM unnest(...)` over binary array parameters (one element per
/// row and column).
extension PGTransaction {
    static let insertClicksSQL = """
        INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser, dynamic, source_hash,
                            os_version, country, variant)
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::text[], $7::text[],
                             $8::text[], $9::text[], $10::bytea[], $11::text[], $12::text[], $13::int8[])
        """
    static let insertHandoffsSQL = """
        INSERT INTO handoffs (token_hash, click_id, app_id, platform, link_id, short_url, route, referral_code,
                              metadata, dynamic, created_at, expires_at, claimed_instance, claimed_open)
        SELECT * FROM unnest($1::bytea[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                             $8::text[], $9::text[], $10::text[], $11::int8[], $12::int8[], $13::text[], $14::text[])
        """
    /// The six counts in one round trip. Rows in key order within each table, and the
    /// tables in the statement's one order: two edges adding to the same hours and days
    /// lock them in the same order, so they wait for each other instead of deadlocking.
    /// (An empty array inserts nothing.)
    static let upsertCountsSQL = """
        WITH app_hours AS (
            INSERT INTO click_counts (app_id, hour, platform, kind, count)
            SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[])
            ON CONFLICT (app_id, hour, platform, kind) DO UPDATE SET count = click_counts.count + excluded.count
        ), link_clicks AS (
            INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
            SELECT * FROM unnest($6::text[], $7::int8[], $8::text[], $9::text[], $10::text[], $11::int8[])
            ON CONFLICT (link_id, day, platform, kind, in_app_browser)
                DO UPDATE SET count = link_click_counts.count + excluded.count
        ), link_countries AS (
            INSERT INTO link_country_counts (link_id, day, country, count)
            SELECT * FROM unnest($12::text[], $13::int8[], $14::text[], $15::int8[])
            ON CONFLICT (link_id, day, country) DO UPDATE SET count = link_country_counts.count + excluded.count
        ), link_opens AS (
            INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count)
            SELECT * FROM unnest($16::text[], $17::int8[], $18::text[], $19::bool[], $20::int8[])
            ON CONFLICT (link_id, day, matched_by, first_open) DO UPDATE SET count = link_open_counts.count + excluded.count
        ), link_referrers AS (
            INSERT INTO link_referrer_counts (link_id, day, referrer, count)
            SELECT * FROM unnest($21::text[], $22::int8[], $23::text[], $24::int8[])
            ON CONFLICT (link_id, day, referrer) DO UPDATE SET count = link_referrer_counts.count + excluded.count
        ), link_variants AS (
            INSERT INTO link_variant_counts (link_id, day, variant, count)
            SELECT * FROM unnest($25::text[], $26::int8[], $27::int8[], $28::int8[])
            ON CONFLICT (link_id, day, variant) DO UPDATE SET count = link_variant_counts.count + excluded.count
        )
        SELECT 1
        """

    /// Writes the held clicks, then the held handoffs, and forgets them.
    func flushRows() throws(StoreError) {
        if !pendingClicks.isEmpty {
            try db.run("pgt_insert_clicks", Self.insertClicksSQL, Self.clickArrays(pendingClicks))
            pendingClicks.removeAll(keepingCapacity: true)
        }
        if !pendingHandoffs.isEmpty {
            try db.run("pgt_insert_handoffs", Self.insertHandoffsSQL, Self.handoffArrays(pendingHandoffs))
            pendingHandoffs.removeAll(keepingCapacity: true)
        }
    }

    /// The resolver's batches count opens only: one table's upsert, not five (four of them
    /// over empty arrays).
    static let upsertOpenCountsSQL = """
        INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count)
        SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::bool[], $5::int8[])
        ON CONFLICT (link_id, day, matched_by, first_open) DO UPDATE SET count = link_open_counts.count + excluded.count
        """

    /// The leads' and sales' daily counts of the batch (schema 12), rows in key order. The
    /// amount in two columns (`StoredAmount`, schema 15), added as `numeric`: an older
    /// binary of the fleet adds to `amount` alone and may leave it above 10^18.
    static let upsertConversionCountsSQL = """
        INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount, amount_high)
        SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::int8[], $6::int8[], $7::int8[])
        ON CONFLICT (link_id, day, type, currency) DO UPDATE
            SET count = link_conversion_counts.count + excluded.count,
                amount = mod(link_conversion_counts.amount::numeric + excluded.amount, 1000000000000000000)::bigint,
                amount_high = link_conversion_counts.amount_high + excluded.amount_high
                    + div(link_conversion_counts.amount::numeric + excluded.amount, 1000000000000000000)::bigint
        """

    /// The same by the arm of the event's click (schema 17), after them.
    static let upsertVariantConversionCountsSQL = """
        INSERT INTO link_variant_conversion_counts (link_id, day, variant, type, currency, count, amount, amount_high)
        SELECT * FROM unnest($1::text[], $2::int8[], $3::int8[], $4::text[], $5::text[], $6::int8[], $7::int8[],
                             $8::int8[])
        ON CONFLICT (link_id, day, variant, type, currency) DO UPDATE
            SET count = link_variant_conversion_counts.count + excluded.count,
                amount = mod(link_variant_conversion_counts.amount::numeric + excluded.amount, 1000000000000000000)::bigint,
                amount_high = link_variant_conversion_counts.amount_high + excluded.amount_high
                    + div(link_variant_conversion_counts.amount::numeric + excluded.amount, 1000000000000000000)::bigint
        """

    /// Adds the pending counts to `click_counts` and the links' daily counts and forgets
    /// them. Called before COMMIT (`flushPending`) and
    /// before a read of the counts through this transaction. On failure the counts stay
    /// pending and the caller rolls back.
    ///
    /// The conversion counts go last, in key order: a batch of leads and sales locked its
    /// customers job by job (in customer order, `WriteJob.lockOrder`); taking the count
    /// rows only here, after all of those, in one order on every writer connection,
    /// means a writer waiting for a count row never holds one another writer waits for.
    func flushCounts() throws(StoreError) {
        if counts.isEmpty { return }
        if !counts.entries.isEmpty || !counts.links.hasNoVisitCounts { try flushVisitCounts() }
        let conversions = counts.links.sortedConversions
        if !conversions.isEmpty {
            let n = conversions.count
            let amounts = conversions.map { StoredAmount.split($0.sum.amount) }
            var p = PGParams(capacity: 7)
            p.array(PGParams.textOID, count: n) { w in for e in conversions { w.text(e.key.linkId) } }
            p.array(PGParams.int8OID, count: n) { w in for e in conversions { w.int(e.key.day) } }
            p.array(PGParams.textOID, count: n) { w in for e in conversions { w.text(e.key.type.rawValue) } }
            p.array(PGParams.textOID, count: n) { w in for e in conversions { w.text(e.key.currency) } }
            p.array(PGParams.int8OID, count: n) { w in for e in conversions { w.int(Int64(e.sum.count)) } }
            p.array(PGParams.int8OID, count: n) { w in for a in amounts { w.int(a.low) } }
            p.array(PGParams.int8OID, count: n) { w in for a in amounts { w.int(a.high) } }
            try db.run("pgt_upsert_conversion_counts", Self.upsertConversionCountsSQL, p)
        }
        let arms = counts.links.sortedVariantConversions
        if !arms.isEmpty {
            let n = arms.count
            let amounts = arms.map { StoredAmount.split($0.sum.amount) }
            var p = PGParams(capacity: 8)
            p.array(PGParams.textOID, count: n) { w in for e in arms { w.text(e.key.linkId) } }
            p.array(PGParams.int8OID, count: n) { w in for e in arms { w.int(e.key.day) } }
            p.array(PGParams.int8OID, count: n) { w in for e in arms { w.int(Int64(e.key.variant)) } }
            p.array(PGParams.textOID, count: n) { w in for e in arms { w.text(e.key.type.rawValue) } }
            p.array(PGParams.textOID, count: n) { w in for e in arms { w.text(e.key.currency) } }
            p.array(PGParams.int8OID, count: n) { w in for e in arms { w.int(Int64(e.sum.count)) } }
            p.array(PGParams.int8OID, count: n) { w in for a in amounts { w.int(a.low) } }
            p.array(PGParams.int8OID, count: n) { w in for a in amounts { w.int(a.high) } }
            try db.run("pgt_upsert_variant_conversion_counts", Self.upsertVariantConversionCountsSQL, p)
        }
        counts.removeAll()
    }

    /// The clicks' and opens' counts: one statement for the five tables, or the opens'
    /// alone for a resolver's batch.
    private func flushVisitCounts() throws(StoreError) {
        if counts.entries.isEmpty && counts.links.hasOpensOnly {
            let opens = counts.links.sortedOpens
            let o = opens.count
            var p = PGParams(capacity: 5)
            p.array(PGParams.textOID, count: o) { w in for e in opens { w.text(e.key.linkId) } }
            p.array(PGParams.int8OID, count: o) { w in for e in opens { w.int(e.key.day) } }
            p.array(PGParams.textOID, count: o) { w in for e in opens { w.text(e.key.matchedBy.rawValue) } }
            p.array(PGParams.boolOID, count: o) { w in for e in opens { w.bool(e.key.firstOpen) } }
            p.array(PGParams.int8OID, count: o) { w in for e in opens { w.int(Int64(e.count)) } }
            try db.run("pgt_upsert_open_counts", Self.upsertOpenCountsSQL, p)
            return
        }
        let entries = counts.entries.sorted { a, b in
            let (x, y) = (a.key, b.key)
            if x.appId != y.appId { return x.appId < y.appId }
            if x.hour != y.hour { return x.hour < y.hour }
            if x.platform != y.platform { return x.platform.rawValue < y.platform.rawValue }
            return x.kind.rawValue < y.kind.rawValue
        }
        var p = PGParams(capacity: 28)
        let n = entries.count
        p.array(PGParams.textOID, count: n) { w in for e in entries { w.text(e.key.appId) } }
        p.array(PGParams.int8OID, count: n) { w in for e in entries { w.int(e.key.hour) } }
        p.array(PGParams.textOID, count: n) { w in for e in entries { w.text(e.key.platform.rawValue) } }
        p.array(PGParams.textOID, count: n) { w in for e in entries { w.text(e.key.kind.rawValue) } }
        p.array(PGParams.int8OID, count: n) { w in for e in entries { w.int(Int64(e.count)) } }
        let clicks = counts.links.sortedClicks
        let c = clicks.count
        p.array(PGParams.textOID, count: c) { w in for e in clicks { w.text(e.key.linkId) } }
        p.array(PGParams.int8OID, count: c) { w in for e in clicks { w.int(e.key.day) } }
        p.array(PGParams.textOID, count: c) { w in for e in clicks { w.text(e.key.platform.rawValue) } }
        p.array(PGParams.textOID, count: c) { w in for e in clicks { w.text(e.key.kind.rawValue) } }
        p.array(PGParams.textOID, count: c) { w in for e in clicks { w.text(e.key.inAppBrowser) } }
        p.array(PGParams.int8OID, count: c) { w in for e in clicks { w.int(Int64(e.count)) } }
        let countries = counts.links.sortedCountries
        let k = countries.count
        p.array(PGParams.textOID, count: k) { w in for e in countries { w.text(e.key.linkId) } }
        p.array(PGParams.int8OID, count: k) { w in for e in countries { w.int(e.key.day) } }
        p.array(PGParams.textOID, count: k) { w in for e in countries { w.text(e.key.country) } }
        p.array(PGParams.int8OID, count: k) { w in for e in countries { w.int(Int64(e.count)) } }
        let opens = counts.links.sortedOpens
        let o = opens.count
        p.array(PGParams.textOID, count: o) { w in for e in opens { w.text(e.key.linkId) } }
        p.array(PGParams.int8OID, count: o) { w in for e in opens { w.int(e.key.day) } }
        p.array(PGParams.textOID, count: o) { w in for e in opens { w.text(e.key.matchedBy.rawValue) } }
        p.array(PGParams.boolOID, count: o) { w in for e in opens { w.bool(e.key.firstOpen) } }
        p.array(PGParams.int8OID, count: o) { w in for e in opens { w.int(Int64(e.count)) } }
        let referrers = counts.links.sortedReferrers
        let r = referrers.count
        p.array(PGParams.textOID, count: r) { w in for e in referrers { w.text(e.key.linkId) } }
        p.array(PGParams.int8OID, count: r) { w in for e in referrers { w.int(e.key.day) } }
        p.array(PGParams.textOID, count: r) { w in for e in referrers { w.text(e.key.referrer) } }
        p.array(PGParams.int8OID, count: r) { w in for e in referrers { w.int(Int64(e.count)) } }
        let arms = counts.links.sortedVariants
        let v = arms.count
        p.array(PGParams.textOID, count: v) { w in for e in arms { w.text(e.key.linkId) } }
        p.array(PGParams.int8OID, count: v) { w in for e in arms { w.int(e.key.day) } }
        p.array(PGParams.int8OID, count: v) { w in for e in arms { w.int(Int64(e.key.variant)) } }
        p.array(PGParams.int8OID, count: v) { w in for e in arms { w.int(Int64(e.count)) } }
        try db.run("pgt_upsert_counts", Self.upsertCountsSQL, p)
    }

    static func clickArrays(_ clicks: [Click]) -> PGParams {
        let n = clicks.count
        var p = PGParams(capacity: 13)
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.id) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.linkId) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.appId) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.domain) } }
        p.array(PGParams.int8OID, count: n) { w in for c in clicks { w.int(c.at) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.kind.rawValue) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.platform.rawValue) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.inAppBrowser) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(bytes: encodedDynamic(c.dynamic)) } }
        p.array(PGParams.byteaOID, count: n) { w in for c in clicks { w.bytes(c.sourceHash) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.osVersion) } }
        p.array(PGParams.textOID, count: n) { w in for c in clicks { w.text(c.country) } }
        p.array(PGParams.int8OID, count: n) { w in for c in clicks { w.int(c.variant.map(Int64.init)) } }
        return p
    }

    static func handoffArrays(_ handoffs: [Handoff]) -> PGParams {
        let n = handoffs.count
        var p = PGParams(capacity: 14)
        p.array(PGParams.byteaOID, count: n) { w in for h in handoffs { w.bytes(h.tokenHash) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.clickId) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.appId) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.platform.rawValue) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.snapshot.linkId) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.snapshot.shortUrl) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.snapshot.route) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.snapshot.referralCode) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(bytes: h.snapshot.metadataJSON) } }
        p.array(PGParams.textOID, count: n) { w in
            for h in handoffs { w.text(bytes: encodedDynamic(h.snapshot.dynamic)) }
        }
        p.array(PGParams.int8OID, count: n) { w in for h in handoffs { w.int(h.createdAt) } }
        p.array(PGParams.int8OID, count: n) { w in for h in handoffs { w.int(h.expiresAt) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.claimedByInstance) } }
        p.array(PGParams.textOID, count: n) { w in for h in handoffs { w.text(h.claimedByOpen) } }
        return p
    }

    /// Dynamic values as stored: NULL when there are none, else `ModelCodec`'s pairs.
    static func encodedDynamic(_ pairs: [(String, String)]) -> [UInt8]? {
        pairs.isEmpty ? nil : ModelCodec.encode(pairs: pairs)
    }
}
