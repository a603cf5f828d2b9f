import Core
import Model
import XCTest

@testable import Store

/// The per-link daily counts on SQLite: what a batch adds (clicks with or without an app,
/// preview bots' visits, opens naming the link), by UTC day, platform, kind, in-app
/// browser and country; one row per distinct key whatever the number of clicks; nothing
/// from a job that failed; retention by whole days.
class LinkAnalyticsTests: StoreTestCase {
    static let day: Int64 = 86_400_000
    /// 2023-11-14 22:13:20 UTC, the stores' test clock: day 19,675.
    static let now: Int64 = 1_700_000_000_000
    static let today = now / day

    static func click(
        _ n: Int, link: String = Fixture.linkId, app: String? = Fixture.appId, at: Int64 = now,
        platform: VisitorPlatform = .android, kind: ClickKind = .androidRedirect, browser: String? = nil,
        country: String? = nil, referrer: String? = nil
    ) -> Click {
        Click(
            id: "biq_clk_la\(n)", linkId: link, appId: app, domain: Fixture.host, at: at, kind: kind,
            platform: platform, inAppBrowser: browser, country: country, referrer: referrer)
    }

    func read(_ link: String = Fixture.linkId, from: Int64 = today - 10, through: Int64 = today) throws
        -> LinkAnalytics
    {
        try reader.linkAnalytics(link: link, fromDay: from, throughDay: through)
    }

    func testClicksAreCountedByDayPlatformKindBrowserAndCountry() throws {
        try write { tx in
            try tx.insertClick(Self.click(1, browser: "instagram", country: "DE", referrer: "l.instagram.com"))
            try tx.insertClick(Self.click(2, browser: "instagram", country: "DE", referrer: "l.instagram.com"))
            try tx.insertClick(Self.click(3, platform: .ios, kind: .deepView, browser: "instagram", country: "DE"))
            try tx.insertClick(Self.click(4, at: Self.now - Self.day, platform: .desktop, kind: .desktop))
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: Self.now)
        }
        // Another batch adds to the same rows; a web-only click (no app) counts for its link too.
        try write { tx in
            try tx.insertClick(Self.click(5, browser: "instagram", country: "DE"))
            try tx.insertClick(
                Self.click(6, app: nil, platform: .desktop, kind: .desktop, country: "FR", referrer: "t.co"))
            try tx.countPreview(appId: nil, linkId: Fixture.linkId, platform: .bot, at: Self.now)
        }
        XCTAssertEqual(
            try read(),
            LinkAnalytics(
                clicks: [
                    .init(day: Self.today - 1, platform: .desktop, kind: .desktop, count: 1),
                    .init(
                        day: Self.today, platform: .android, kind: .androidRedirect, inAppBrowser: "instagram",
                        count: 3),
                    .init(day: Self.today, platform: .bot, kind: .previewBot, count: 2),
                    .init(day: Self.today, platform: .desktop, kind: .desktop, count: 1),
                    .init(day: Self.today, platform: .ios, kind: .deepView, inAppBrowser: "instagram", count: 1),
                ],
                countries: [
                    .init(day: Self.today - 1, country: nil, count: 1),
                    .init(day: Self.today, country: nil, count: 2),
                    .init(day: Self.today, country: "DE", count: 4),
                    .init(day: Self.today, country: "FR", count: 1),
                ],
                referrers: [
                    .init(day: Self.today, referrer: "l.instagram.com", count: 2),
                    .init(day: Self.today, referrer: "t.co", count: 1),
                ], opens: []))
        // The days asked for only; another link's counts apart.
        XCTAssertEqual(try read(from: Self.today - 1, through: Self.today - 1).clicks.map(\.count), [1])
        XCTAssertEqual(try read("biq_lnk_other"), LinkAnalytics(clicks: [], opens: []))
        // The click keeps its country.
        XCTAssertEqual(try reader.click(id: "biq_clk_la6")?.country, "FR")
        // The apps' hourly counts are as before: only clicks and previews with an app.
        XCTAssertEqual(try countedClicks(), 6)
    }

    func testOneRowPerDistinctKeyWhateverTheNumberOfClicks() throws {
        try write { tx in
            for n in 0..<2_000 { try tx.insertClick(Self.click(n, country: "JP")) }
        }
        try write { tx in
            for n in 2_000..<2_500 { try tx.insertClick(Self.click(n, country: "JP")) }
        }
        XCTAssertEqual(try count("link_click_counts"), 1)
        XCTAssertEqual(try count("link_country_counts"), 1)
        XCTAssertEqual(try read().clicks.first?.count, 2_500)
        XCTAssertEqual(try read().countries, [.init(day: Self.today, country: "JP", count: 2_500)])
    }

    func testABatchOverManyLinksCountsEachLink() throws {
        // Interleaved: the last key never matches, each is found by its hash.
        try write { tx in
            for n in 0..<900 {
                try tx.insertClick(Self.click(n, link: "biq_lnk_\(n % 300)", country: n < 300 ? "DE" : nil))
            }
        }
        for l in [0, 1, 150, 299] {
            let counts = try read("biq_lnk_\(l)")
            XCTAssertEqual(counts.clicks.map(\.count), [3], "link \(l)")
            XCTAssertEqual(counts.countries.map(\.country), [nil, "DE"], "link \(l)")
            XCTAssertEqual(counts.countries.map(\.count), [2, 1], "link \(l)")
        }
        XCTAssertEqual(try count("link_click_counts"), 300)
        XCTAssertEqual(try count("link_country_counts"), 600, "300 links, each once with a country and twice without")
    }

    func testAJobThatFailsLeavesNoCountAndItsBatchMatesKeepTheirs() throws {
        let gate = holdWriter()
        let done = Latch()
        store.write({ tx in try tx.insertClick(Self.click(1, country: "DE")) }) { _ in done.countDown() }
        store.write({ tx in
            try tx.insertClick(Self.click(2, country: "IT"))
            try tx.insertOpenEvent(Fixture.open(id: "o1", eventId: "e1", at: Self.now))
            throw StoreError.conflict(.linkKey)
        }) { _ in done.countDown() }
        store.write({ tx in try tx.insertClick(Self.click(3, country: "DE")) }) { _ in done.countDown() }
        gate.release()
        XCTAssertTrue(done.wait(for: 3))
        let analytics = try read()
        XCTAssertEqual(analytics.countries.map(\.country), ["DE"])
        XCTAssertEqual(analytics.countries.map(\.count), [2])
        XCTAssertEqual(analytics.clicks.map(\.count), [2])
        XCTAssertEqual(analytics.opens, [])
    }

    func testATransactionReadsTheCountsItsBatchHoldsSoFar() throws {
        let seen = try write { tx in
            try tx.insertClick(Self.click(1))
            try tx.insertOpenEvent(Fixture.open(id: "o1", eventId: "e1", at: Self.now))
            return try tx.linkAnalytics(link: Fixture.linkId, fromDay: Self.today, throughDay: Self.today)
        }
        XCTAssertEqual(seen.clicks.map(\.count), [1])
        XCTAssertEqual(seen.opens.map(\.count), [1])
        XCTAssertEqual(try read(), seen, "and the same once committed")
    }

    func testRetentionDeletesTheDaysWhollyBeforeTheCutoff() throws {
        try write { tx in
            for (n, back) in [3, 2, 1, 0].enumerated() {
                let at = Self.now - Int64(back) * Self.day
                var click = Self.click(n, at: at, referrer: "t.co")
                click.variant = 1
                try tx.insertClick(click)
                try tx.insertOpenEvent(Fixture.open(id: "o\(n)", eventId: "e\(n)", at: at))
            }
        }
        // The cutoff falls inside the day before yesterday: that day stays, as its clicks partly do.
        _ = try store.prune(olderThan: Self.now - 2 * Self.day, now: Self.now)
        let left = try read()
        XCTAssertEqual(left.clicks.map(\.day), [Self.today - 2, Self.today - 1, Self.today])
        XCTAssertEqual(left.opens.map(\.day), [Self.today - 2, Self.today - 1, Self.today])
        XCTAssertEqual(left.countries.map(\.day), [Self.today - 2, Self.today - 1, Self.today])
        XCTAssertEqual(left.referrers.map(\.day), [Self.today - 2, Self.today - 1, Self.today])
        XCTAssertEqual(left.variantClicks.map(\.day), [Self.today - 2, Self.today - 1, Self.today])
        XCTAssertEqual(try count("link_variant_counts"), 3)
        XCTAssertEqual(try count("link_referrer_counts"), 3)
        XCTAssertEqual(try count("link_click_counts"), 3)
        XCTAssertEqual(try count("link_country_counts"), 3)
        XCTAssertEqual(try count("link_open_counts"), 3)
    }

    func testDaysAreWholeUTCDaysFloorDownBeforeTheEpoch() {
        XCTAssertEqual(LinkCounter.day(0), 0)
        XCTAssertEqual(LinkCounter.day(Self.day - 1), 0)
        XCTAssertEqual(LinkCounter.day(Self.day), 1)
        XCTAssertEqual(LinkCounter.day(-1), -1)
        XCTAssertEqual(LinkCounter.day(-Self.day), -1)
        XCTAssertEqual(LinkCounter.day(-Self.day - 1), -2)
        XCTAssertEqual(LinkAnalytics.day(of: Self.now), 19_675)
    }
}

/// The same with one savepoint per job (no optimistic pass): a failed job's counts go
/// with its savepoint. (Linux's test discovery sees only the methods a class declares.)
final class LinkAnalyticsSavepointTests: LinkAnalyticsTests {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.optimisticBatches = false
        return options
    }

    override func testAJobThatFailsLeavesNoCountAndItsBatchMatesKeepTheirs() throws {
        try super.testAJobThatFailsLeavesNoCountAndItsBatchMatesKeepTheirs()
    }

    override func testClicksAreCountedByDayPlatformKindBrowserAndCountry() throws {
        try super.testClicksAreCountedByDayPlatformKindBrowserAndCountry()
    }
}
