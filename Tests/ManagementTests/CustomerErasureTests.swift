import Core
import Model
import XCTest

@testable import Management

/// What erasure makes of a customer's events: the external ID out of every text the
/// caller gave, the event ID replaced only when it holds it (issue 33 item 5).
final class CustomerErasureTests: XCTestCase {
    let customer = Customer(
        id: "biq_cus_01K", externalId: "cust-42", name: "Zoë", email: "zoe@example.com", clickId: "biq_clk_1",
        linkId: "l1", createdAt: 1, updatedAt: 1)

    func event(eventId: String, metadata: String? = #"{"who":"cust-42","cust-42":["x cust-42 y",3]}"#)
        -> ConversionEvent
    {
        var e = ConversionEvent(
            id: "biq_sev_01K", type: .sale, eventId: eventId, idempotencyKeyHash: SHA256.hash(eventId),
            requestHash: [1, 2, 3], eventName: "Order of cust-42", customerId: customer.id, clickId: "biq_clk_1",
            linkId: "l1", amount: 4999, currency: "usd", paymentProcessor: "stripe", invoiceId: "in_cust-42_7",
            metadata: metadata, occurredAt: 5, createdAt: 5, response: [])
        e.response =
            ConversionJSON.answer(event: e, click: "biq_clk_1", link: nil, customer: customer).jsonBytes
        return e
    }

    func testAnEventIdHoldingTheExternalIdBecomesTheErasedEventsOwn() throws {
        let erased = CustomerErasure.scrub(event(eventId: "signup:cust-42"), of: customer)
        XCTAssertEqual(erased.eventId, "erased_biq_sev_01K")
        XCTAssertTrue(CustomerErasure.isReserved(erased.eventId), "no new event can take it")
    }

    func testAnyOtherEventIdStaysSoThatARetryIsStillAReplay() {
        let before = event(eventId: "evt_9f2c")
        let erased = CustomerErasure.scrub(before, of: customer)
        XCTAssertEqual(erased.eventId, "evt_9f2c")
        XCTAssertEqual(erased.requestHash, before.requestHash)
    }

    func testTheKeysHashIsOneNoKeyHashesTo() {
        let before = event(eventId: "signup:cust-42")
        let erased = CustomerErasure.scrub(before, of: customer)
        XCTAssertNotEqual(erased.idempotencyKeyHash, before.idempotencyKeyHash)
        XCTAssertNotEqual(erased.idempotencyKeyHash, SHA256.hash("erased_biq_sev_01K"))
        XCTAssertEqual(erased.idempotencyKeyHash.count, 32)
    }

    func testNoTextOfTheEventOrItsAnswerKeepsTheExternalIdOrThePersonalFields() throws {
        let erased = CustomerErasure.scrub(event(eventId: "signup:cust-42"), of: customer)
        let texts = [
            erased.eventId, erased.eventName, erased.invoiceId ?? "", erased.metadata ?? "",
            String(decoding: erased.response, as: UTF8.self),
        ]
        for text in texts {
            XCTAssertFalse(text.contains("cust-42"), text)
            XCTAssertFalse(text.contains("Zo") || text.contains("zoe@"), text)
        }
        XCTAssertEqual(erased.eventName, "Order of erased_biq_cus_01K")
        XCTAssertEqual(erased.invoiceId, "in_erased_biq_cus_01K_7")
        XCTAssertEqual(
            try JSONParser.parse(Array(erased.metadata!.utf8)),
            try JSONParser.parse(#"{"who":"erased_biq_cus_01K","erased_biq_cus_01K":["x erased_biq_cus_01K y",3]}"#))
        let answer = try JSONParser.parse(erased.response)
        XCTAssertEqual(answer["customer"]?["externalId"], "erased_biq_cus_01K")
        XCTAssertEqual(answer["customer"]?["name"], .null)
        XCTAssertEqual(answer["event"]?["eventId"], "erased_biq_sev_01K")
        XCTAssertEqual(answer["sale"]?["amount"], 4999, "amounts stay")
    }

    func testMetadataThatIsNotJSONIsStillScrubbedAsText() {
        let erased = CustomerErasure.scrub(event(eventId: "e1", metadata: "cust-42!"), of: customer)
        XCTAssertEqual(erased.metadata, "erased_biq_cus_01K!")
    }
}
