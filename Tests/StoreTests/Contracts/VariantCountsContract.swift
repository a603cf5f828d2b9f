import Model
import XCTest

@testable import Store

/// What every backend counts per arm of a link's A/B test (decision 0032): the clicks that
/// got an arm by UTC day and arm, and the leads and sales whose click got one by day, arm,
/// type and currency (the arm recorded on the event), beside the link's other counts.
enum VariantCountsContract {
    static let suite: [ContractCase] = [
        ("a link's clicks, leads and sales are counted by arm", clicksLeadsAndSalesAreCountedByArm)
    ]

    static let day: Int64 = 86_400_000
    static let today = ContractTime.now / day

    static func click(_ n: Int, at: Int64, variant: Int?) -> Click {
        var c = Fixture.click(id: "biq_clk_arm\(n)", at: at, platform: .desktop, kind: .desktop, app: nil)
        c.variant = variant
        return c
    }

    static func event(
        _ n: Int, _ type: ConversionType, variant: Int?, at: Int64, amount: Int64? = nil, currency: String? = nil
    ) -> ConversionEvent {
        ConversionEvent(
            id: type.idPrefix + "01J00000000000000000000A\(n)", type: type, eventId: "arm_\(n)",
            idempotencyKeyHash: [0xA0, UInt8(n)], requestHash: [1], eventName: type == .lead ? "Sign up" : "Purchase",
            customerId: "biq_cus_arm", clickId: "biq_clk_arm\(n)", linkId: Fixture.linkId, amount: amount,
            currency: currency, occurredAt: at, createdAt: at, response: [], variant: variant)
    }

    static func clicksLeadsAndSalesAreCountedByArm(_ b: any ContractBackend) throws {
        let now = ContractTime.now
        try b.write { tx in
            try tx.insertClick(click(1, at: now, variant: 0))
            try tx.insertClick(click(2, at: now, variant: 1))
            try tx.insertClick(click(3, at: now, variant: 1))
            try tx.insertClick(click(4, at: now - day, variant: 1))
            // A click without an arm (a plain link's, a rule's) counts for the link, not by arm.
            try tx.insertClick(click(5, at: now, variant: nil))
            XCTAssertTrue(try tx.insertConversionEvent(event(1, .lead, variant: 1, at: now)))
            XCTAssertTrue(
                try tx.insertConversionEvent(event(2, .sale, variant: 1, at: now, amount: 500, currency: "eur")))
            XCTAssertTrue(try tx.insertConversionEvent(event(3, .lead, variant: nil, at: now)))
        }
        // Another batch adds to the same rows.
        try b.write { tx in
            try tx.insertClick(click(6, at: now, variant: 0))
            XCTAssertTrue(
                try tx.insertConversionEvent(event(4, .sale, variant: 1, at: now, amount: 250, currency: "eur")))
            XCTAssertTrue(
                try tx.insertConversionEvent(event(5, .sale, variant: 0, at: now, amount: 100, currency: "usd")))
        }
        // A replayed event (its id taken) counts nothing.
        XCTAssertFalse(
            try b.write { tx in try tx.insertConversionEvent(event(5, .sale, variant: 0, at: now, amount: 100)) })
        let counts = try b.committed.linkAnalytics(link: Fixture.linkId, fromDay: today - 10, throughDay: today)
        XCTAssertEqual(
            counts.variantClicks,
            [
                .init(day: today - 1, variant: 1, count: 1),
                .init(day: today, variant: 0, count: 2),
                .init(day: today, variant: 1, count: 2),
            ])
        XCTAssertEqual(
            counts.variantConversions,
            [
                .init(day: today, variant: 0, type: .sale, currency: "usd", count: 1, amount: 100),
                .init(day: today, variant: 1, type: .lead, currency: nil, count: 1, amount: 0),
                .init(day: today, variant: 1, type: .sale, currency: "eur", count: 2, amount: 750),
            ])
        // The event keeps its arm.
        XCTAssertEqual(try b.committed.conversionEvent(eventId: "arm_2")?.variant, 1)
        XCTAssertNil(try b.committed.conversionEvent(eventId: "arm_3")?.variant)
        XCTAssertEqual(
            try b.committed.linkAnalytics(link: "biq_lnk_other", fromDay: today - 10, throughDay: today).variantClicks,
            [])
    }
}
