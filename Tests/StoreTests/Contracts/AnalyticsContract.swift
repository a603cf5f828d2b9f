import Core
import Model
import XCTest

@testable import Store

/// What every backend must count (`AnalyticsReading`, and the counts `VisitWriting` and
/// `OpenWriting` keep): an app's clicks by whole UTC hours and its opens from the exact
/// time; a link's opens by UTC day, match type and first open; preview bots counted
/// without a click.
enum AnalyticsContract {
    static let suite: [ContractCase] = [
        (
            "clicks count by whole hours and opens from the exact time",
            analyticsCountClicksByWholeHoursAndOpensFromTheExactTime
        ),
        ("preview bots are counted without a click", previewBotsAreCountedWithoutAClick),
        (
            "a link's opens are counted by day, match type and first open",
            opensOfALinkAreCountedByDayMatchTypeAndFirstOpen
        ),
    ]

    static let hour: Int64 = 3_600_000
    /// Twelve hours before the suites' time, on a whole hour.
    static let h0 = (ContractTime.now - 12 * hour) / hour * hour
    static let day: Int64 = 86_400_000
    static let today = ContractTime.now / day

    static func analyticsCountClicksByWholeHoursAndOpensFromTheExactTime(_ b: any ContractBackend) throws {
        let since = h0 + 10 * hour + 500
        try b.write { tx in
            // The hour that holds `since` counts in full, even its clicks before `since`.
            try tx.insertClick(Fixture.click(id: "c1", at: h0 + 10 * hour + 100))
            try tx.insertClick(Fixture.click(id: "c2", at: h0 + 11 * hour))
            try tx.insertClick(Fixture.click(id: "c3", at: h0 + 11 * hour, platform: .android, kind: .androidRedirect))
            try tx.insertClick(Fixture.click(id: "c4", at: h0 + 10 * hour - 1))
            try tx.insertClick(Fixture.click(id: "c5", at: h0 + 12 * hour, app: "biq_mapp_other"))
            try tx.insertClick(Fixture.click(id: "c6", at: h0 + 12 * hour, platform: .ios, kind: .iosFallback))
            try tx.insertClick(
                Fixture.click(id: "c7", at: h0 + 12 * hour, platform: .desktop, kind: .desktop, app: nil))
            try tx.insertOpenEvent(Fixture.open(id: "o1", eventId: "e1", at: since, matchedBy: .exactHandoff))
            try tx.insertOpenEvent(Fixture.open(id: "o2", eventId: "e2", at: since + 200, matchedBy: .exactHandoff))
            try tx.insertOpenEvent(
                Fixture.open(id: "o3", eventId: "e3", at: since + 100, matchedBy: .none, firstOpen: false))
            try tx.insertOpenEvent(Fixture.open(id: "o4", eventId: "e4", at: since - 1, matchedBy: .probabilistic))
            try tx.insertOpenEvent(Fixture.open(id: "o5", eventId: "e5", app: "biq_mapp_other", at: since + 300))
        }
        let a = try b.committed.analytics(app: Fixture.appId, since: since, recent: 2)
        XCTAssertEqual(
            a.clicks,
            [
                .init(platform: .android, kind: .androidRedirect, count: 1),
                .init(platform: .ios, kind: .deepView, count: 2),
                .init(platform: .ios, kind: .iosFallback, count: 1),
            ])
        XCTAssertEqual(
            a.opens,
            [
                .init(matchedBy: .exactHandoff, firstOpen: true, count: 2),
                .init(matchedBy: .none, firstOpen: false, count: 1),
            ])
        XCTAssertEqual(a.recent.map(\.id), ["o2", "o3"])
        XCTAssertEqual(
            try b.committed.analytics(app: "biq_mapp_none", since: 0, recent: 5),
            AppAnalytics(clicks: [], opens: [], recent: []))
    }

    static func previewBotsAreCountedWithoutAClick(_ b: any ContractBackend) throws {
        try b.write { tx in
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: h0 + 1_000)
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: h0 + 2_000)
            try tx.countPreview(appId: nil, linkId: "biq_lnk_web", platform: .bot, at: h0 + 2_000)
        }
        XCTAssertEqual(
            try b.committed.analytics(app: Fixture.appId, since: h0, recent: 0).clicks,
            [.init(platform: .bot, kind: .previewBot, count: 2)])
        XCTAssertNil(try b.committed.click(id: "biq_clk_1"))
        XCTAssertEqual(try b.committed.recentClicks(link: Fixture.linkId, limit: 10), [], "no click stored")
    }

    static func opensOfALinkAreCountedByDayMatchTypeAndFirstOpen(_ b: any ContractBackend) throws {
        try b.write { tx in
            try tx.insertOpenEvent(Fixture.open(id: "o1", eventId: "e1", at: ContractTime.now))
            try tx.insertOpenEvent(Fixture.open(id: "o2", eventId: "e2", at: ContractTime.now, firstOpen: false))
            try tx.insertOpenEvent(
                Fixture.open(id: "o3", eventId: "e3", at: ContractTime.now, matchedBy: .probabilistic))
            try tx.insertOpenEvent(Fixture.open(id: "o4", eventId: "e4", at: ContractTime.now - day))
            var unlinked = Fixture.open(id: "o5", eventId: "e5", at: ContractTime.now, matchedBy: .none)
            unlinked.linkId = nil
            try tx.insertOpenEvent(unlinked)
        }
        // A second event with a taken eventId is refused and counts nothing.
        XCTAssertEqual(
            b.writeError { tx in try tx.insertOpenEvent(Fixture.open(id: "o6", eventId: "e1", at: ContractTime.now)) },
            .conflict(.eventId))
        XCTAssertEqual(
            try b.committed.linkAnalytics(link: Fixture.linkId, fromDay: today - 10, throughDay: today).opens,
            [
                .init(day: today - 1, matchedBy: .exactHandoff, firstOpen: true, count: 1),
                .init(day: today, matchedBy: .exactHandoff, firstOpen: false, count: 1),
                .init(day: today, matchedBy: .exactHandoff, firstOpen: true, count: 1),
                .init(day: today, matchedBy: .probabilistic, firstOpen: true, count: 1),
            ])
    }
}
