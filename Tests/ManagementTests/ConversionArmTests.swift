import Core
import Model
import Store
import XCTest

@testable import Management

/// The arm a lead or sale without a `clickId` of its own reaches (decision 0032): its
/// customer's click's, and once retention took the click, the one an earlier event of
/// that click recorded.
final class ConversionArmTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    let clickId = "biq_clk_" + ULID.make(milliseconds: 1_800_000_000_000, random: (1, 2))
    let customer = Customer(
        id: "biq_cus_arm", externalId: "arm", name: nil, email: nil, avatar: nil, clickId: nil, linkId: nil,
        createdAt: 0, updatedAt: 0)

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "conversion-arm")
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func arm() throws -> Int? {
        let (customer, clickId) = (self.customer, self.clickId)
        return try store.writeAndWait { tx in try ConversionOperations.customerArm(customer, clickId: clickId, tx) }
    }

    func testTheClicksArmThenAnEarlierEventsWhenTheClickIsGone() throws {
        let (customer, clickId) = (self.customer, self.clickId)
        XCTAssertNil(try arm(), "no click, no event: no arm")
        // An earlier lead of that click recorded arm 2 (its click since pruned).
        let lead = ConversionEvent(
            id: "biq_lev_1", type: .lead, eventId: "e1", idempotencyKeyHash: [1], requestHash: [1],
            eventName: "Sign up", customerId: customer.id, clickId: clickId, linkId: "biq_lnk_1",
            occurredAt: 1, createdAt: 1, response: [], variant: 2)
        var other = lead
        (other.id, other.eventId, other.idempotencyKeyHash, other.clickId, other.variant) =
            ("biq_lev_0", "e0", [0], "biq_clk_other", 4)
        let events = [other, lead]
        try store.writeAndWait { tx in
            for e in events { XCTAssertTrue(try tx.insertConversionEvent(e)) }
        }
        XCTAssertEqual(try arm(), 2, "the event of the same click, not another click's")
        // The click itself, while kept, answers.
        let click = Click(
            id: clickId, linkId: "biq_lnk_1", appId: nil, domain: "go.example.com", at: 1_800_000_000_000,
            kind: .desktop, platform: .desktop, inAppBrowser: nil, variant: 1)
        try store.writeAndWait { tx in try tx.insertClick(click) }
        XCTAssertEqual(try arm(), 1)
    }
}
