import Model
import XCTest

@testable import Store

/// The writer's in-memory sums before they reach the link tables.
final class LinkCounterTests: XCTestCase {
    func testTheSameKeyAddsUpAndAbsentValuesAreEmpty() {
        var c = LinkCounter()
        for _ in 0..<3 {
            c.addClick(
                linkId: "l", at: 5, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
        }
        c.addClick(linkId: "l", at: 5, platform: .ios, kind: .deepView, inAppBrowser: "line", country: "TH")
        c.addClick(linkId: "l", at: 6, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
        XCTAssertEqual(c.clicks.map(\.count), [4, 1])
        XCTAssertEqual(c.clicks.map(\.key.inAppBrowser), ["", "line"])
        XCTAssertEqual(c.countries.map(\.key.country), ["", "TH"])
        XCTAssertEqual(c.countries.map(\.count), [4, 1], "countries apart from the browsers")
    }

    /// A click's arm counts apart (a link, day and arm a row) and only when it has one; a
    /// lead or sale with an arm counts in `conversions` and by arm.
    func testArmsAreCountedApartAndInKeyOrder() {
        var c = LinkCounter()
        for (link, arm) in [("l", 1), ("l", 0), ("l", 1), ("k", 1)] as [(String, Int?)] + [("l", nil)] {
            c.addClick(
                linkId: link, at: 5, platform: .desktop, kind: .desktop, inAppBrowser: nil, country: nil,
                variant: arm)
        }
        XCTAssertEqual(c.clicks.map(\.count), [4, 1])
        XCTAssertEqual(c.variants.map(\.count), [2, 1, 1])
        XCTAssertEqual(c.sortedVariants.map { "\($0.key.linkId)\($0.key.variant)" }, ["k1", "l0", "l1"])
        var sale = ConversionEvent(
            id: "s", type: .sale, eventId: "e", idempotencyKeyHash: [], requestHash: [], eventName: "P",
            customerId: "c", clickId: nil, linkId: "l", amount: 70, currency: "eur", occurredAt: 5, createdAt: 5,
            response: [], variant: 2)
        c.addConversion(sale)
        sale.variant = nil
        c.addConversion(sale)
        XCTAssertEqual(c.conversions.values.map(\.count), [2])
        XCTAssertEqual(c.sortedVariantConversions.map(\.key.variant), [2])
        XCTAssertEqual(c.sortedVariantConversions.map(\.sum), [LinkCounter.ConversionSum(count: 1, amount: 70)])
        var copy = c
        copy.removeAll()
        XCTAssertTrue(copy.variants.isEmpty && copy.variantConversions.isEmpty)
        XCTAssertNotEqual(copy, c)
    }

    func testReferringSitesAreCountedApartAndInByteOrder() {
        var c = LinkCounter()
        for site in ["t.co", nil, "t.co", "b.example", "t.co"] {
            c.addClick(
                linkId: "l", at: 5, platform: .desktop, kind: .desktop, inAppBrowser: nil, country: "DE",
                referrer: site)
        }
        c.addClick(linkId: "l", at: 5, platform: .bot, kind: .previewBot, inAppBrowser: nil, country: nil)
        XCTAssertEqual(c.clicks.map(\.count), [5, 1], "referrers apart from the platforms")
        XCTAssertEqual(c.referrers.map(\.key.referrer), ["t.co", "b.example"], "no row for a click without a site")
        XCTAssertEqual(c.referrers.map(\.count), [3, 1])
        XCTAssertEqual(c.sortedReferrers.map(\.key.referrer), ["b.example", "t.co"])
        XCTAssertFalse(c.hasOpensOnly)
        var copy = c
        copy.removeAll()
        XCTAssertTrue(copy.referrers.isEmpty)
        XCTAssertNotEqual(copy, c)
    }

    func testKeysAreFoundWhenTheyAreNotTheLastOne() {
        var c = LinkCounter()
        for n in 0..<100 {
            c.addClick(
                linkId: "l\(n % 10)", at: 0, platform: .android, kind: .androidRedirect, inAppBrowser: nil,
                country: nil)
            c.addOpen(linkId: "l\(n % 5)", at: 0, matchedBy: .exactHandoff, firstOpen: n % 2 == 0)
        }
        XCTAssertEqual(c.clicks.count, 10)
        XCTAssertTrue(c.clicks.allSatisfy { $0.count == 10 })
        XCTAssertEqual(c.opens.count, 10, "each of 5 links with first opens and others")
        XCTAssertTrue(c.opens.allSatisfy { $0.count == 10 })
    }

    func testSortedRowsFollowTheKeyOrderAndRemoveAllEmpties() {
        var c = LinkCounter()
        c.addClick(linkId: "b", at: 0, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
        c.addClick(
            linkId: "a", at: LinkCounter.dayMilliseconds, platform: .ios, kind: .deepView, inAppBrowser: nil,
            country: nil)
        c.addClick(linkId: "a", at: 0, platform: .ios, kind: .deepView, inAppBrowser: nil, country: "DE")
        c.addClick(linkId: "a", at: 0, platform: .android, kind: .androidRedirect, inAppBrowser: nil, country: nil)
        c.addOpen(linkId: "a", at: 0, matchedBy: .probabilistic, firstOpen: true)
        c.addOpen(linkId: "a", at: 0, matchedBy: .exactHandoff, firstOpen: true)
        c.addOpen(linkId: "a", at: 0, matchedBy: .exactHandoff, firstOpen: false)
        XCTAssertEqual(
            c.sortedClicks.map { "\($0.key.linkId)\($0.key.day)\($0.key.platform)" },
            ["a0android", "a0ios", "a1ios", "b0ios"])
        XCTAssertEqual(
            c.sortedCountries.map { "\($0.key.linkId)\($0.key.day)\($0.key.country)\($0.count)" },
            ["a01", "a0DE1", "a11", "b01"])
        XCTAssertEqual(
            c.sortedOpens.map { "\($0.key.matchedBy.rawValue)\($0.key.firstOpen)" },
            ["exact_handofffalse", "exact_handofftrue", "probabilistictrue"])
        var copy = c
        XCTAssertEqual(copy, c)
        copy.removeAll()
        XCTAssertTrue(copy.isEmpty)
        XCTAssertNotEqual(copy, c)
        copy.addClick(linkId: "x", at: 0, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
        XCTAssertEqual(copy.clicks.count, 1, "the index was emptied with the rows")
    }

    func testKeysStayFoundWhenTheRowsGrowPastTheScanIntoTheIndex() {
        var c = LinkCounter()
        for round in 0..<3 {
            for n in 0..<(LinkCounter.indexedFrom + 3) {
                c.addClick(
                    linkId: "l\(n)", at: 0, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
                c.addOpen(linkId: "l\(n)", at: 0, matchedBy: .none, firstOpen: false)
            }
            XCTAssertEqual(c.clicks.count, LinkCounter.indexedFrom + 3, "round \(round)")
            XCTAssertEqual(c.opens.count, LinkCounter.indexedFrom + 3, "round \(round)")
        }
        XCTAssertTrue(c.clicks.allSatisfy { $0.count == 3 })
        XCTAssertTrue(c.opens.allSatisfy { $0.count == 3 })
        c.removeAll()
        for _ in 0..<2 {
            c.addClick(linkId: "l0", at: 0, platform: .ios, kind: .deepView, inAppBrowser: nil, country: nil)
        }
        XCTAssertEqual(c.clicks.map(\.count), [2], "after removeAll, scanned again")
    }

    /// A batch's sales of one link, day and currency at the largest amount the API takes
    /// (2^53 - 1): their sum passes 2^63 - 1 from the 1,025th, and stays exact.
    func testABatchsSalesAddUpPastSixtyFourBits() {
        var c = LinkCounter()
        let largest: Int64 = 9_007_199_254_740_991
        for n in 0..<1_025 {
            c.addConversion(
                ConversionEvent(
                    id: "biq_sev_\(n)", type: .sale, eventId: "e\(n)", idempotencyKeyHash: [], requestHash: [],
                    eventName: "Purchase", customerId: "c", clickId: nil, linkId: "l", amount: largest,
                    currency: "vnd", paymentProcessor: nil, invoiceId: nil, metadata: nil, occurredAt: 5,
                    createdAt: 5, response: []))
        }
        XCTAssertEqual(c.sortedConversions.map(\.sum), [.init(count: 1_025, amount: 1_025 * Int128(largest))])
        XCTAssertGreaterThan(c.sortedConversions[0].sum.amount, Int128(Int64.max))
    }
}
