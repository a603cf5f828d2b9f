import Core
import Model
import XCTest

@testable import Store

/// PostgreSQL's writes keep SQLite's rules: conflict names, claims, one-time use,
/// first-open immutability, idempotency keys in either form, the candidates of a
/// probabilistic match, what a batch records for the caches; and its own parts:
/// deferred inserts and retention by partitions.
final class PGTransactionTests: PGTestCase {
    private func seed() throws {
        try applyToBoth { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
            try tx.putLink(Fixture.link())
        }
    }

    /// Rows of `table` as the writer's own connection sees them, without flushing anything.
    private func writerCount(_ table: String) throws -> Int64 {
        try db.run("test_count_" + table, "SELECT count(*) FROM \(table)").int(0, 0)
    }

    // MARK: conflicts

    func testConflictsAndMissingReferencesAreNamedAsInSQLite() throws {
        try seed()
        XCTAssertEqual(
            try applyToBoth { tx in try tx.putLink(Fixture.link(id: "biq_lnk_other")) }, .conflict(.linkKey))
        XCTAssertEqual(try applyToBoth { tx in try tx.insertDomain(Fixture.domain()) }, .conflict(.domain))
        XCTAssertEqual(
            try applyToBoth { tx in try tx.putLink(Fixture.link(id: "biq_lnk_x", host: "none.example.com")) },
            .missingReference(.domain))
        XCTAssertEqual(
            try applyToBoth { tx in try tx.putLink(Fixture.link(id: "biq_lnk_x", key: "x", appId: "biq_mapp_none")) },
            .missingReference(.app))
        XCTAssertEqual(
            try applyToBoth { tx in try tx.putApp(Fixture.app("biq_mapp_2", domains: ["none.example.com"])) },
            .missingReference(.domain))
        XCTAssertEqual(
            try applyToBoth { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk", appId: "biq_mapp_none", keyHash: [1], hint: "h", createdAt: 1))
            }, .missingReference(.app))
        let record = IdempotencyRecord(scope: "s", keyHash: [1], requestHash: [2], status: 200, body: [], createdAt: 1)
        XCTAssertNil(try applyToBoth { tx in try tx.putIdempotencyRecord(record) })
        XCTAssertEqual(try applyToBoth { tx in try tx.putIdempotencyRecord(record) }, .conflict(.idempotencyRecord))
        let handoff = Fixture.handoff(token: 1, clickId: "c")
        XCTAssertNil(try applyToBoth { tx in try tx.insertHandoff(handoff) })
        XCTAssertEqual(try applyToBoth { tx in try tx.insertHandoff(handoff) }, .conflict(.handoff))
        XCTAssertEqual(
            transactionError { tx in
                tx.deferInserts = false
                try tx.insertHandoff(handoff)
            }, .conflict(.handoff))
        XCTAssertEqual(
            try applyToBoth { tx in
                try tx.putSecretKey(SecretKeyRecord(id: "sk_1", name: "a", keyHash: [1], hint: "h", createdAt: 1))
                try tx.putSecretKey(SecretKeyRecord(id: "sk_2", name: "b", keyHash: [1], hint: "h", createdAt: 1))
            }, .conflict(.secretKey))
        try assertSameAsSQLite("nothing of a failed transaction") { try $0.secretKeys() }
    }

    private func open(_ id: String, event: String, key: String, app: String = Fixture.appId) -> OpenEvent {
        Fixture.open(id: id, eventId: event, app: app, idempotencyKeyHash: SHA256.hash(key), at: now - 1_000)
    }

    /// `OpenEventKeyTests` on both stores: every key unique per app in either form.
    func testOpenEventKeysConflictAsInSQLite() throws {
        func insert(_ event: OpenEvent, key: String) throws -> StoreError? {
            try applyToBoth { tx in try tx.insertOpenEvent(event, idempotencyKey: key) }
        }
        XCTAssertNil(try insert(open("biq_open_1", event: "open_a1", key: "open_a1"), key: "open_a1"))
        XCTAssertNil(try insert(open("biq_open_2", event: "open_b2", key: "key_b2"), key: "key_b2"))
        XCTAssertEqual(
            try insert(open("biq_open_3", event: "open_c3", key: "open_a1"), key: "open_a1"),
            .conflict(.idempotencyKey))
        XCTAssertEqual(
            try insert(open("biq_open_4", event: "key_b2", key: "key_b2"), key: "key_b2"), .conflict(.idempotencyKey)
        )
        XCTAssertEqual(
            try insert(open("biq_open_5", event: "open_e5", key: "key_b2"), key: "key_b2"), .conflict(.idempotencyKey)
        )
        XCTAssertEqual(
            try insert(open("biq_open_6", event: "open_a1", key: "key_f6"), key: "key_f6"), .conflict(.eventId))
        XCTAssertEqual(
            try insert(open("biq_open_7", event: "open_a1", key: "open_a1"), key: "open_a1"), .conflict(.eventId))
        // Both taken: the key is named, as SQLite's index order names it.
        XCTAssertEqual(
            try insert(open("biq_open_8", event: "open_b2", key: "key_b2"), key: "key_b2"), .conflict(.idempotencyKey)
        )
        // Without the key text: the hash is the key.
        let keyOnly = open("biq_open_9", event: "open_g9", key: "key_b2")
        XCTAssertEqual(try applyToBoth { tx in try tx.insertOpenEvent(keyOnly) }, .conflict(.idempotencyKey))
        for id in (3...9).map({ "biq_open_\($0)" }) { try assertSameAsSQLite(id) { try $0.openEvent(id: id) } }
        // Other apps have their own keys.
        XCTAssertNil(
            try insert(open("biq_open_10", event: "open_c3", key: "open_a1", app: "biq_mapp_other"), key: "open_a1"))
        XCTAssertNil(
            try insert(open("biq_open_11", event: "key_b2", key: "key_b2", app: "biq_mapp_other"), key: "key_b2"))
        XCTAssertEqual(
            try integer("SELECT count(*) FROM open_event_keys WHERE kind = 'k'"), 2, "own keys (1 and 11) keep no hash")
        XCTAssertEqual(try integer("SELECT count(*) FROM open_events"), 4)
    }

    /// A conflict leaves no key behind and the transaction usable (as SQLite's failed statement).
    func testAConflictingEventLeavesNothingAndTheTransactionGoesOn() throws {
        try inTransaction { tx in
            try tx.insertOpenEvent(open("biq_open_1", event: "open_a1", key: "key_1"), idempotencyKey: "key_1")
        }
        try inTransaction { tx in
            for (event, key) in [("open_a1", "key_2"), ("open_b2", "key_1")] {
                XCTAssertThrowsError(
                    try tx.insertOpenEvent(open("biq_open_2", event: event, key: key), idempotencyKey: key))
            }
            try tx.insertOpenEvent(open("biq_open_3", event: "open_c3", key: "key_3"), idempotencyKey: "key_3")
        }
        XCTAssertEqual(try integer("SELECT count(*) FROM open_event_keys"), 4)
        XCTAssertNil(try reader.openEvent(app: Fixture.appId, eventId: "open_b2"))
        XCTAssertNil(try reader.openEvent(app: Fixture.appId, idempotencyKeyHash: SHA256.hash("key_2")))
        XCTAssertEqual(try reader.openEvent(app: Fixture.appId, eventId: "open_c3")?.id, "biq_open_3")
    }

    /// The lookup's miss is remembered for the insert, never past another event.
    func testAFreeLookupIsForgottenOnceAnotherEventIsWritten() throws {
        let key = "key_shared"
        let (e1, e2) = (open("biq_open_1", event: "open_e1", key: key), open("biq_open_2", event: "open_e2", key: key))
        let error = transactionError { tx in
            let free = try tx.openEvent(
                app: Fixture.appId, eventId: "open_e1", idempotencyKey: key, keyHash: SHA256.hash(key))
            XCTAssertNil(free)
            try tx.insertOpenEvent(e2, idempotencyKey: key)
            try tx.insertOpenEvent(e1, idempotencyKey: key)
        }
        XCTAssertEqual(error, .conflict(.idempotencyKey))
        try inTransaction { tx in
            let k = "open_e3"
            XCTAssertNil(try tx.openEvent(app: Fixture.appId, eventId: k, idempotencyKey: k, keyHash: SHA256.hash(k)))
            try tx.insertOpenEvent(open("biq_open_3", event: k, key: k), idempotencyKey: k)
        }
        XCTAssertEqual(
            try reader.openEvent(
                app: Fixture.appId, eventId: "x_other", idempotencyKey: "open_e3", keyHash: SHA256.hash("open_e3"))?.id,
            "biq_open_3")
        XCTAssertEqual(try integer("SELECT length(idempotency_key_hash) FROM open_events"), 0)
    }

    // MARK: claims and one-time use

    func testAHandoffIsClaimedOnceAndOnlyWhenValid() throws {
        let handoff = Fixture.handoff(token: 1, clickId: "biq_clk_1", expiresAt: 90_000)
        try inTransaction { tx in try tx.insertHandoff(handoff) }
        func claim(
            app: String = Fixture.appId, platform: Platform = .android, now: Int64 = 50_000, link: String? = nil,
            instance: String = "install_a", open: String = "biq_open_a"
        ) throws -> HandoffView? {
            try inTransaction { tx in
                try tx.claimHandoff(
                    tokenHash: handoff.tokenHash, app: app, platform: platform, now: now, linkId: link,
                    instance: instance, openId: open)
            }
        }
        XCTAssertNil(try claim(app: "biq_mapp_other"))
        XCTAssertNil(try claim(platform: .ios))
        XCTAssertNil(try claim(now: 90_000), "expired at its expiry")
        XCTAssertNil(try claim(link: "biq_lnk_other"))
        XCTAssertNil(try reader.handoff(tokenHash: handoff.tokenHash)?.claimedByInstance)
        let view = try XCTUnwrap(try claim(now: 89_999, link: Fixture.linkId))
        let expected = HandoffView(handoff)
        XCTAssertEqual(view.metadataJSON, expected.metadataJSON)
        XCTAssertEqual(
            [view.clickId, view.appId, view.linkId, view.shortUrl, view.route, view.referralCode],
            [
                expected.clickId, expected.appId, expected.linkId, expected.shortUrl, expected.route,
                expected.referralCode,
            ])
        XCTAssertTrue(view.dynamic.elementsEqual(expected.dynamic, by: ==))
        XCTAssertEqual([view.createdAt, view.expiresAt], [handoff.createdAt, handoff.expiresAt])
        XCTAssertNil(try claim(instance: "install_b", open: "biq_open_b"), "claimed: never again")
        XCTAssertNil(try claim(open: "biq_open_c"), "not even by the same instance")
        let stored = try reader.handoff(tokenHash: handoff.tokenHash)
        XCTAssertEqual(stored?.claimedByInstance, "install_a")
        XCTAssertEqual(stored?.claimedByOpen, "biq_open_a")
    }

    func testThePlainClaimHoldsForItsInstanceOnly() throws {
        let handoff = Fixture.handoff(token: 2, clickId: "biq_clk_2")
        let results = try inTransaction { tx in
            try tx.insertHandoff(handoff)  // held: the claim must see it
            return [
                try tx.claimHandoff(tokenHash: handoff.tokenHash, instance: "install_a", openId: "biq_open_1"),
                try tx.claimHandoff(tokenHash: handoff.tokenHash, instance: "install_a", openId: "biq_open_2"),
                try tx.claimHandoff(tokenHash: handoff.tokenHash, instance: "install_b", openId: "biq_open_3"),
                try tx.claimHandoff(tokenHash: [0], instance: "install_a", openId: "biq_open_4"),
            ]
        }
        XCTAssertEqual(results, [true, true, false, false])
        XCTAssertEqual(try reader.handoff(tokenHash: handoff.tokenHash)?.claimedByOpen, "biq_open_1")
    }

    func testAClickIsConsumedOnce() throws {
        let (a, b) = (Fixture.click(id: "biq_clk_a", at: now - 1_000), Fixture.click(id: "biq_clk_b", at: now - 2_000))
        try inTransaction { tx in
            try tx.insertClick(a)
            try tx.insertClick(b)
        }
        let first = try inTransaction { tx in
            let found = try tx.probabilisticCandidates(
                app: Fixture.appId, domain: Fixture.host, sourceHash: [1, 2, 3], osVersion: nil, since: now - 60_000,
                limit: 5)
            XCTAssertEqual(found, [a, b])
            return [
                try tx.consumeClick(id: "biq_clk_a", openId: "biq_open_1"),
                try tx.consumeClick(id: "biq_clk_a", openId: "biq_open_2"),
            ]
        }
        XCTAssertEqual(first, [true, false])
        // Without a lookup in the batch (every partition probed), and an unknown click.
        let second = try inTransaction { tx in
            [
                try tx.consumeClick(id: "biq_clk_a", openId: "biq_open_3"),
                try tx.consumeClick(id: "biq_clk_b", openId: "biq_open_3"),
                try tx.consumeClick(id: "biq_clk_c", openId: "biq_open_3"),
            ]
        }
        XCTAssertEqual(second, [false, true, false])
        XCTAssertEqual(try integer("SELECT count(*) FROM clicks WHERE consumed_by_open = 'biq_open_1'"), 1)
    }

    func testTheFirstOpenOfAnInstanceNeverChanges() throws {
        func upsert(_ first: String?, platform: Platform = .ios, createdAt: Int64) throws {
            try applyToBoth { tx in
                try tx.upsertAppInstance(
                    AppInstance(
                        appId: Fixture.appId, instanceId: "install_a", platform: platform, firstOpenId: first,
                        createdAt: createdAt))
            }
        }
        try upsert(nil, createdAt: 1)
        try upsert("biq_open_1", createdAt: 2)
        try upsert("biq_open_2", platform: .android, createdAt: 3)
        try upsert(nil, createdAt: 4)
        try assertSameAsSQLite("instance") { try $0.appInstance(app: Fixture.appId, instance: "install_a") }
        XCTAssertEqual(
            try reader.appInstance(app: Fixture.appId, instance: "install_a"),
            AppInstance(
                appId: Fixture.appId, instanceId: "install_a", platform: .ios, firstOpenId: "biq_open_1", createdAt: 1))
    }

    // MARK: probabilistic candidates

    func testCandidatesAreUnusedIOSClicksOfTheAppDomainAndAddressSinceTheTimeNewestFirst() throws {
        let now = self.now
        let since = now - 3_600_000
        var clicks = [
            Fixture.click(id: "biq_clk_match_old", at: since),
            Fixture.click(id: "biq_clk_match_new", at: now - 10),
            Fixture.click(id: "biq_clk_match_mid", at: now - 500_000, osVersion: "16.0"),
            Fixture.click(id: "biq_clk_too_old", at: since - 1),
            Fixture.click(id: "biq_clk_android", at: now - 20, platform: .android),
            Fixture.click(id: "biq_clk_other_app", at: now - 30, app: "biq_mapp_other"),
            Fixture.click(id: "biq_clk_other_host", at: now - 40, host: "other.example.com"),
            Fixture.click(id: "biq_clk_other_hash", at: now - 50, sourceHash: [9]),
            Fixture.click(id: "biq_clk_no_hash", at: now - 60, sourceHash: nil),
            Fixture.click(id: "biq_clk_no_app", at: now - 70, app: nil),
            Fixture.click(id: "biq_clk_consumed", at: now - 80),
        ]
        // In time order, as the edge writes them: SQLite's `limit` takes the last written
        // (decision 0009), PostgreSQL's the newest by time; the same clicks then.
        clicks.sort { $0.at < $1.at }
        let all = clicks
        func candidates(_ os: String?, limit: Int = 10) -> @Sendable (any StoreReader) throws -> [String] {
            { reader in
                let tx = try XCTUnwrap(reader as? any StoreTransaction)
                return try tx.probabilisticCandidates(
                    app: Fixture.appId, domain: Fixture.host, sourceHash: [1, 2, 3], osVersion: os, since: since,
                    limit: limit
                ).map(\.id)
            }
        }
        // Read-your-writes: the clicks are still held when the question comes.
        let inBatch = try inTransaction { tx in
            for click in all { try tx.insertClick(click) }
            XCTAssertEqual(tx.pendingClicks.count, all.count)
            XCTAssertTrue(try tx.consumeClick(id: "biq_clk_consumed", openId: "biq_open_0"))
            return try candidates(nil)(tx)
        }
        XCTAssertEqual(inBatch, ["biq_clk_match_new", "biq_clk_match_mid", "biq_clk_match_old"])
        let sqlite = try sqliteStore
        try sqlite.writeAndWait { tx in
            for click in all { try tx.insertClick(click) }
            _ = try tx.consumeClick(id: "biq_clk_consumed", openId: "biq_open_0")
        }
        for (os, limit) in [(nil, 10), ("17.4", 10), ("16.0", 10), ("15.0", 10), (nil, 2), (nil, 0)] as [(String?, Int)]
        {
            let read = candidates(os, limit: limit)
            let expected = try sqlite.writeAndWait { tx in try read(tx) }
            XCTAssertEqual(try inTransaction { tx in try read(tx) }, expected, "\(os ?? "any") \(limit)")
        }
    }

    /// The question must imply the partial index's predicate, or every click of the
    /// window is read; and days before `since` are never scanned.
    func testTheCandidateQueryUsesThePartialIndexOfTheDaysFromSince() throws {
        try db.execute("SET enable_seqscan = off; SET plan_cache_mode = force_generic_plan")
        try db.execute(
            "PREPARE candidates(text, bytea, int8, text, text, int8) AS " + PGTransaction.selectCandidatesSQL)
        let rows = try db.run(
            "test_explain_candidates", "EXPLAIN EXECUTE candidates('a', '\\x01', \(now - 3_600_000), 'd', NULL, 2)")
        let plan = (0..<rows.rowCount).map { rows.text($0, 0) }.joined(separator: "\n")
        XCTAssertTrue(plan.contains("_app_id_source_hash_at_idx"), plan)
        XCTAssertTrue(plan.contains("Subplans Removed"), plan)
        XCTAssertFalse(plan.contains("Seq Scan"), plan)
    }

    // MARK: deferred inserts

    func testFiveHundredVisitsAreWrittenByOneFlushAndReadBack() throws {
        let now = self.now
        let clicks = (0..<500).map { i in
            var c = Fixture.click(
                id: "biq_clk_\(i)", at: now - Int64(i) * 1_000, platform: i % 2 == 0 ? .ios : .android)
            if i % 3 == 0 { c.dynamic = [] }
            if i % 5 == 0 { c.sourceHash = nil }
            return c
        }
        let handoffs = (0..<500).map { i in
            var h = Fixture.handoff(token: 0, clickId: "biq_clk_\(i)", expiresAt: now + 600_000)
            h.tokenHash = SHA256.hash("token \(i)")
            if i % 4 == 0 { h.snapshot.dynamic = [] }
            if i % 7 == 0 { h.snapshot.referralCode = nil }
            return h
        }
        try inTransaction { tx in
            for (c, h) in zip(clicks, handoffs) {
                try tx.insertClick(c)
                try tx.insertHandoff(h)
            }
            XCTAssertEqual([tx.pendingClicks.count, tx.pendingHandoffs.count], [500, 500])
            XCTAssertEqual(try writerCount("clicks"), 0, "nothing written yet")
            try tx.flushPending()
            XCTAssertEqual([tx.pendingClicks.count, tx.pendingHandoffs.count], [0, 0])
            XCTAssertTrue(tx.counts.isEmpty, "the counts went with the flush")
        }
        XCTAssertEqual(try integer("SELECT count(*) FROM clicks"), 500)
        XCTAssertEqual(try integer("SELECT count(*) FROM handoffs"), 500)
        for i in [0, 1, 2, 3, 5, 7, 250, 499] {
            XCTAssertEqual(try reader.click(id: "biq_clk_\(i)"), clicks[i])
            XCTAssertEqual(try reader.handoff(tokenHash: handoffs[i].tokenHash), handoffs[i])
        }
        let counted = try reader.analytics(app: Fixture.appId, since: now - 1_000_000, recent: 0).clicks
        XCTAssertEqual(counted.reduce(0) { $0 + $1.count }, 500)
    }

    func testReadsAndOtherWritesInTheBatchSeeHeldRows() throws {
        let click = Fixture.click(id: "biq_clk_1", at: now - 1_000)
        let handoff = Fixture.handoff(token: 1, clickId: "biq_clk_1")
        try inTransaction { tx in
            try tx.insertClick(click)
            XCTAssertEqual(try tx.click(id: "biq_clk_1"), click)
            XCTAssertTrue(tx.pendingClicks.isEmpty, "the read flushed it")
            try tx.insertHandoff(handoff)
            try tx.putDomain(Fixture.domain())
            XCTAssertTrue(tx.pendingHandoffs.isEmpty, "any other statement flushes too")
            XCTAssertEqual(try tx.handoff(tokenHash: handoff.tokenHash), handoff)
            XCTAssertEqual(
                try tx.analytics(app: Fixture.appId, since: 0, recent: 0).clicks,
                [AppAnalytics.ClickCount(platform: .ios, kind: .deepView, count: 1)], "counts read through the batch")
        }
        XCTAssertEqual(try reader.analytics(app: Fixture.appId, since: 0, recent: 0).clicks.first?.count, 1)
    }

    func testWithoutDeferringEachInsertIsWrittenAtOnce() throws {
        try inTransaction(deferInserts: false) { tx in
            try tx.insertClick(Fixture.click(id: "biq_clk_1", at: now - 1_000))
            try tx.insertHandoff(Fixture.handoff(token: 1, clickId: "biq_clk_1"))
            XCTAssertTrue(tx.pendingClicks.isEmpty && tx.pendingHandoffs.isEmpty)
            XCTAssertEqual(try writerCount("clicks"), 1, "written in the transaction")
            XCTAssertEqual(try integer("SELECT count(*) FROM clicks"), 0, "not committed yet")
            XCTAssertFalse(tx.counts.isEmpty, "counts wait for the batch's end")
        }
        XCTAssertEqual(try integer("SELECT count(*) FROM clicks"), 1)
        XCTAssertEqual(try integer("SELECT count(*) FROM handoffs"), 1)
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM click_counts"), 1)
    }

    func testDiscardedRowsAreNeverWrittenAndCountsAddUpAcrossBatches() throws {
        try inTransaction { tx in
            try tx.insertClick(Fixture.click(id: "biq_clk_gone", at: now - 1_000))
            tx.discardPending()
            tx.counts.removeAll()
            try tx.insertClick(Fixture.click(id: "biq_clk_1", at: now - 1_000))
        }
        try inTransaction { tx in try tx.insertClick(Fixture.click(id: "biq_clk_2", at: now - 2_000)) }
        XCTAssertNil(try reader.click(id: "biq_clk_gone"))
        XCTAssertEqual(try integer("SELECT count(*) FROM clicks"), 2)
        XCTAssertEqual(try integer("SELECT count(*) FROM click_counts"), 1, "one hour, platform and kind")
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM click_counts"), 2)
        // A failed flush (a taken handoff) leaves the transaction to roll back: nothing of the batch stays.
        let error = transactionError { tx in
            try tx.insertClick(Fixture.click(id: "biq_clk_3", at: now - 1_000))
            try tx.insertHandoff(Fixture.handoff(token: 1, clickId: "biq_clk_3"))
            try tx.insertHandoff(Fixture.handoff(token: 1, clickId: "biq_clk_3"))
        }
        XCTAssertEqual(error, .conflict(.handoff))
        XCTAssertEqual(try integer("SELECT count(*) FROM clicks"), 2)
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM click_counts"), 2)
    }

    // MARK: cache bookkeeping

    /// What a batch records for the caches, after each catalog write, as SQLite's transaction records it.
    func testEachWriteRecordsTheSameInvalidationsAsSQLite() throws {
        typealias Record = [String]
        @Sendable func record(_ tx: any StoreTransaction) -> Record {
            if let t = tx as? PGTransaction {
                return t.invalidations.map { "\($0)" } + ["catalog \(t.catalogChanged)", "keys \(t.keysChanged)"]
            }
            let t = tx as! SQLiteTransaction
            return t.invalidations.map { "\($0)" } + ["catalog \(t.catalogChanged)", "keys \(t.keysChanged)"]
        }
        let steps: [@Sendable (any StoreTransaction) throws -> Void] = [
            { tx in try tx.putDomain(Fixture.domain()) },
            { tx in try tx.insertDomain(Fixture.domain("b.example.com")) },
            { tx in try tx.putApp(Fixture.app()) },
            { tx in try tx.putLink(Fixture.link()) },
            { tx in try tx.putLink(Fixture.link(key: "moved")) },
            { tx in try tx.putLink(Fixture.link(id: "biq_lnk_2", host: "b.example.com", key: "k")) },
            { tx in
                try tx.putSecretKey(SecretKeyRecord(id: "sk", name: "n", keyHash: [1], hint: "h", createdAt: 1))
            },
            { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk", appId: Fixture.appId, keyHash: [2], hint: "h", createdAt: 1))
            },
            { tx in try tx.putSigningKey(SigningKeyRecord(kid: "k", publicKey: [1], secretKey: [2], createdAt: 1)) },
            { tx in _ = try tx.deleteLink(id: "biq_lnk_2") },
            { tx in _ = try tx.deleteLink(id: "biq_lnk_2") },
            { tx in _ = try tx.deleteApp("biq_mapp_none") },
            { tx in _ = try tx.deleteApp(Fixture.appId) },
            { tx in _ = try tx.deleteDomain("none.example.com") },
            { tx in _ = try tx.deleteDomain("b.example.com") },
            { tx in try tx.insertClick(Fixture.click(id: "biq_clk_1", at: PGTestCase.now)) },
        ]
        let sqlite = try sqliteStore
        for (i, step) in steps.enumerated() {
            let expected = try sqlite.writeAndWait { tx in
                try step(tx)
                return record(tx)
            }
            let got = try inTransaction { tx in
                try step(tx)
                return record(tx)
            }
            XCTAssertEqual(got, expected, "step \(i)")
        }
        try assertSameAsSQLite("links after deleteApp") { try $0.link(id: Fixture.linkId) }
        try assertSameAsSQLite("revoked keys") { try $0.publishableKeys(app: Fixture.appId) }
        try assertSameAsSQLite("apps") { try $0.apps() }
        try assertSameAsSQLite("domains") { try $0.domains() }
    }

    // MARK: retention

    func testPruneDropsOldDaysThenOldRowsInBoundedSteps() throws {
        let now = self.now
        let day = PGPartitions.dayMilliseconds
        let cutoff = now - 90 * day
        let oldDay = PGPartitions.day(of: cutoff) - 3
        let old = oldDay * day + 1_000
        let partitionsBefore = try PGPartitions.days(on: db)
        XCTAssertTrue(partitionsBefore["clicks"]?.contains(oldDay) ?? false)
        var app = Fixture.app()
        app.handoffLifetimeSeconds = 60
        try inTransaction { [app] tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(app)
            try tx.insertClick(Fixture.click(id: "biq_clk_old", at: old))
            try tx.insertClick(Fixture.click(id: "biq_clk_new", at: now - 1_000))
            try tx.insertOpenEvent(
                open("biq_open_old", event: "open_old", key: "key_old").with(at: old), idempotencyKey: "key_old")
            try tx.insertOpenEvent(open("biq_open_new", event: "open_new", key: "key_new"), idempotencyKey: "key_new")
            // Expired long ago (time-ordered key) and just now (random key), and one still valid.
            var expired = Fixture.handoff(token: 0, clickId: "c", expiresAt: now - 3_600_000)
            expired.tokenHash = HandoffKey.timePrefix(milliseconds: now - 7_200_000) + [UInt8](repeating: 1, count: 26)
            try tx.insertHandoff(expired)
            try tx.insertHandoff(Fixture.handoff(token: 0xFF, clickId: "c", expiresAt: now))
            try tx.insertHandoff(Fixture.handoff(token: 0xFE, clickId: "c", expiresAt: now + 1))
            for i in 0..<5 {
                try tx.putIdempotencyRecord(
                    IdempotencyRecord(
                        scope: "s", keyHash: [UInt8(i)], requestHash: [], status: 200, body: [],
                        createdAt: i < 3 ? cutoff - 1 : cutoff))
            }
        }
        var steps: [Int] = []
        while true {
            let n = try inTransaction { tx in try tx.prune(olderThan: cutoff, now: now, limit: 2) }
            steps.append(n)
            if n == 0 || steps.count > 20 { break }
        }
        let dropped = (partitionsBefore["clicks"]?.filter { $0 < PGPartitions.day(of: cutoff) }.count ?? 0) * 2
        XCTAssertEqual(steps.first, dropped, "the first step drops the old days of both tables, and only that")
        XCTAssertGreaterThan(dropped, 0)
        // The old event's 2 keys, 1 old hour of counts, the link's 3 counts of the old day
        // (clicks, country, opens), 2 expired handoffs, 3 old records; 2 a table and step.
        XCTAssertEqual(Array(steps.dropFirst()), [2 + 1 + 2 + 2 + 2, 1 + 1, 0])
        XCTAssertEqual(steps.last, 0)
        XCTAssertFalse(try PGPartitions.days(on: db)["clicks"]?.contains(oldDay) ?? true)
        XCTAssertNil(try reader.click(id: "biq_clk_old"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_new"))
        XCTAssertNil(try reader.openEvent(id: "biq_open_old"))
        XCTAssertEqual(try reader.openEvent(app: Fixture.appId, eventId: "open_new")?.id, "biq_open_new")
        XCTAssertEqual(try integer("SELECT count(*) FROM open_event_keys"), 2, "the new event's two keys")
        XCTAssertEqual(try integer("SELECT count(*) FROM handoffs"), 1)
        XCTAssertNotNil(try reader.handoff(tokenHash: [UInt8](repeating: 0xFE, count: 32)))
        XCTAssertEqual(try integer("SELECT count(*) FROM idempotency_records"), 2)
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM click_counts"), 1)
    }
}

extension OpenEvent {
    fileprivate func with(at: Int64) -> OpenEvent {
        var copy = self
        copy.at = at
        return copy
    }
}
