import Core
import Model
import XCTest

@testable import Store

/// The per-link daily counts on PostgreSQL: the same answers as SQLite for the same
/// writes, deferred or not, in the batch's one count statement; nothing from a rolled
/// back batch; retention by whole days; the rows stored before step 4 counted by it.
final class PGLinkAnalyticsTests: PGTestCase {
    static let day: Int64 = 86_400_000
    var today: Int64 { LinkCounter.day(now) }

    private func seed() throws {
        try applyToBoth { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
            try tx.putLink(Fixture.link())
        }
    }

    /// Clicks of every kind of key, preview visits and opens, over three days.
    private static func writes(_ now: Int64, offset: Int) -> @Sendable (any StoreTransaction) throws -> Void {
        { tx in
            let browsers: [String?] = [nil, "instagram", "tiktok", nil]
            let countries: [String?] = ["DE", nil, "FR", "DE", "JP"]
            let sites: [String?] = ["t.co", nil, "news.example.org", "l.instagram.com", nil, "t.co"]
            for n in 0..<40 {
                let platform: VisitorPlatform = [.ios, .android, .desktop][n % 3]
                let kind: ClickKind = [.deepView, .androidRedirect, .desktop][n % 3]
                try tx.insertClick(
                    Click(
                        id: "biq_clk_\(offset)_\(n)", linkId: n % 7 == 0 ? "biq_lnk_web" : Fixture.linkId,
                        appId: n % 7 == 0 ? nil : Fixture.appId, domain: Fixture.host, at: now - Int64(n % 3) * day,
                        kind: kind, platform: platform, inAppBrowser: browsers[n % 4], country: countries[n % 5],
                        referrer: sites[n % 6]))
            }
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: now)
            try tx.countPreview(appId: nil, linkId: "biq_lnk_web", platform: .bot, at: now - day)
            for n in 0..<6 {
                try tx.insertOpenEvent(
                    Fixture.open(
                        id: "biq_open_\(offset)_\(n)", eventId: "e_\(offset)_\(n)", at: now - Int64(n % 2) * day,
                        matchedBy: n % 3 == 0 ? .probabilistic : .exactHandoff, firstOpen: n % 2 == 0))
            }
        }
    }

    func testTheCountsAreTheSameAsSQLitesDeferredOrNot() throws {
        try seed()
        try applyToBoth(Self.writes(now, offset: 1))
        // Without deferral (the writer's pass with savepoints), into the same rows.
        try sqliteStore.writeAndWait(Self.writes(now, offset: 2))
        try inTransaction(deferInserts: false) { tx in try Self.writes(self.now, offset: 2)(tx) }
        for link in [Fixture.linkId, "biq_lnk_web", "biq_lnk_none"] {
            try assertSameAsSQLite("link analytics of \(link)") {
                try $0.linkAnalytics(link: link, fromDay: self.today - 5, throughDay: self.today)
            }
        }
        try assertSameAsSQLite("one day") {
            try $0.linkAnalytics(link: Fixture.linkId, fromDay: self.today - 1, throughDay: self.today - 1)
        }
        let all = try reader.linkAnalytics(link: Fixture.linkId, fromDay: today - 5, throughDay: today)
        XCTAssertEqual(all.clicks.reduce(0) { $0 + $1.count }, 2 * (40 - 6 + 1))
        XCTAssertEqual(all.opens.reduce(0) { $0 + $1.count }, 12)
        XCTAssertEqual(Set(all.referrers.map(\.referrer)), ["t.co", "news.example.org", "l.instagram.com"])
        XCTAssertLessThan(all.referrers.reduce(0) { $0 + $1.count }, 2 * (40 - 6), "clicks with a site only")
        XCTAssertEqual(try reader.click(id: "biq_clk_1_0")?.country, "DE")
    }

    func testTheBatchsCountsWaitForItsEndAndARollbackLeavesNone() throws {
        try seed()
        try inTransaction { tx in
            try tx.insertClick(Fixture.click(id: "biq_clk_1", at: self.now))
            XCTAssertEqual(try self.integer("SELECT count(*) FROM link_click_counts"), 0)
            XCTAssertFalse(tx.counts.links.isEmpty)
            try tx.flushPending()
            XCTAssertTrue(tx.counts.isEmpty, "the link counts went with the flush")
        }
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM link_click_counts"), 1)
        XCTAssertNotNil(
            transactionError { tx in
                try tx.insertClick(Fixture.click(id: "biq_clk_2", at: self.now))
                try tx.insertOpenEvent(Fixture.open(id: "biq_open_2", eventId: "e2", at: self.now))
                try tx.flushPending()
                throw StoreError.conflict(.linkKey)
            })
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM link_click_counts"), 1)
        XCTAssertEqual(try integer("SELECT count(*) FROM link_open_counts"), 0)
    }

    func testRetentionDeletesTheDaysWhollyBeforeTheCutoff() throws {
        try seed()
        try inTransaction { tx in
            for back in 0..<4 {
                let at = self.now - Int64(back) * Self.day
                var click = Fixture.click(id: "biq_clk_\(back)", at: at)
                click.referrer = "t.co"
                click.variant = 2
                try tx.insertClick(click)
                try tx.insertOpenEvent(Fixture.open(id: "biq_open_\(back)", eventId: "e\(back)", at: at))
            }
        }
        var pruned = 0
        repeat {
            pruned = try inTransaction { tx in
                try tx.prune(olderThan: self.now - 2 * Self.day, now: self.now, limit: 1)
            }
        } while pruned > 0
        let left = try reader.linkAnalytics(link: Fixture.linkId, fromDay: today - 10, throughDay: today)
        XCTAssertEqual(left.clicks.map(\.day), [today - 2, today - 1, today])
        XCTAssertEqual(left.opens.map(\.day), [today - 2, today - 1, today])
        XCTAssertEqual(left.countries.map(\.day), [today - 2, today - 1, today])
        XCTAssertEqual(left.referrers.map(\.day), [today - 2, today - 1, today])
        XCTAssertEqual(left.variantClicks.map(\.day), [today - 2, today - 1, today])
    }
}

/// Step 4 on a database that already holds clicks and opens counts them once.
final class PGLinkAnalyticsMigrationTests: XCTestCase {
    func testStepFourCountsTheRowsAlreadyStored() throws {
        let now = PGTestCase.now
        let database = try PGTestDatabase(now: now, migrations: PGMigrations.all.filter { $0.version <= 2 })
        defer { database.drop() }
        let connection = try database.connect()
        try connection.execute(
            """
            INSERT INTO clicks (id, link_id, app_id, domain, at, kind, platform, in_app_browser)
            VALUES ('c1', 'l1', 'a', 'h', \(now), 'deep_view', 'ios', 'line'),
                   ('c2', 'l1', 'a', 'h', \(now + 1), 'deep_view', 'ios', 'line'),
                   ('c3', 'l1', NULL, 'h', \(now - 86_400_000), 'desktop', 'desktop', NULL);
            INSERT INTO open_events (id, app_id, instance_id, event_id, request_hash, platform, matched_by, first_open,
                                     sdk_version, link_id, at, stored_response)
            VALUES ('o1', 'a', 'i', 'e1', '\\x00', 'ios', 'exact_handoff', true, '1', 'l1', \(now), '\\x00'),
                   ('o2', 'a', 'i', 'e2', '\\x00', 'ios', 'none', false, '1', NULL, \(now), '\\x00');
            """)
        try PGMigrations.apply(on: connection)
        let today = LinkCounter.day(now)
        let counts = try PGQueries(db: connection).linkAnalytics(link: "l1", fromDay: today - 1, throughDay: today)
        XCTAssertEqual(
            counts,
            LinkAnalytics(
                clicks: [
                    .init(day: today - 1, platform: .desktop, kind: .desktop, count: 1),
                    .init(day: today, platform: .ios, kind: .deepView, inAppBrowser: "line", count: 2),
                ],
                countries: [.init(day: today - 1, country: nil, count: 1), .init(day: today, country: nil, count: 2)],
                opens: [.init(day: today, matchedBy: .exactHandoff, firstOpen: true, count: 1)]))
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), 1, "an additive step")
    }
}
