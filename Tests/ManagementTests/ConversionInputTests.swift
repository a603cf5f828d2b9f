import Core
import Model
import XCTest

@testable import Management

/// The rules of the server SDK's conversion calls: headers and bodies as the contract
/// (../shared/spec/conversions-contract.md) says the SDK sends them.
final class ConversionInputTests: XCTestCase {
    let now: Int64 = 1_780_000_000_000

    func body(_ json: String) throws -> [(String, JSONValue)] {
        guard case .object(let members) = try JSONParser.parse(Array(json.utf8)) else {
            XCTFail("not an object")
            return []
        }
        return members
    }

    func parse(_ type: ConversionType, _ json: String) throws -> ConversionInput {
        try ConversionInput.parse(type, try body(json), now: now)
    }

    func refusal(_ type: ConversionType, _ json: String) throws -> ManagementError? {
        do {
            _ = try parse(type, json)
            return nil
        } catch let error as ManagementError {
            return error
        }
    }

    func fields(_ error: ManagementError?) -> [String] {
        guard case .invalid(let problems)? = error else { return [] }
        return problems.map(\.field)
    }

    // MARK: headers

    func testTheIdempotencyKeyRuleIsTheSDKs() throws {
        XCTAssertTrue(ConversionHeaders.isValidIdempotencyKey("signup:customer_123"))
        XCTAssertTrue(ConversionHeaders.isValidIdempotencyKey("k"))
        XCTAssertTrue(ConversionHeaders.isValidIdempotencyKey(String(repeating: "a", count: 255)))
        XCTAssertTrue(ConversionHeaders.isValidIdempotencyKey("invoice_a/b+c=d é"))
        XCTAssertFalse(ConversionHeaders.isValidIdempotencyKey(""))
        XCTAssertFalse(ConversionHeaders.isValidIdempotencyKey(String(repeating: "a", count: 256)))
        XCTAssertFalse(ConversionHeaders.isValidIdempotencyKey(String(repeating: "é", count: 128)), "bytes count")
        XCTAssertFalse(ConversionHeaders.isValidIdempotencyKey("a\tb"))
        XCTAssertFalse(ConversionHeaders.isValidIdempotencyKey("a\u{7F}"))
        XCTAssertThrowsError(try ConversionHeaders.idempotencyKey([])) {
            XCTAssertEqual($0 as? ManagementError, .idempotencyKeyRequired)
        }
        XCTAssertThrowsError(try ConversionHeaders.idempotencyKey(["a", "b"]))
        XCTAssertEqual(try ConversionHeaders.idempotencyKey(["evt_1"]), "evt_1")
    }

    func testTheRequestIdRuleAllowsColons() {
        XCTAssertTrue(ConversionHeaders.isValidRequestId("req_6f1c0b1e-3b8e-4a57-9d53-2c0d1f6e5a11"))
        XCTAssertTrue(ConversionHeaders.isValidRequestId("trace:abc.1_2-3"))
        XCTAssertTrue(ConversionHeaders.isValidRequestId("r"))
        XCTAssertFalse(ConversionHeaders.isValidRequestId(""))
        XCTAssertFalse(ConversionHeaders.isValidRequestId("a b"))
        XCTAssertFalse(ConversionHeaders.isValidRequestId("a~b"))
        XCTAssertFalse(ConversionHeaders.isValidRequestId(String(repeating: "a", count: 101)))
    }

    // MARK: what the SDK sends

    func testExplicitNullsAndAnEmptyListAsMetadataAreAbsent() throws {
        let input = try parse(
            .lead,
            #"{"clickId":null,"eventId":"evt_1","eventName":"Sign up","customerExternalId":"c\u00fc\ud83c\udf89","customerName":null,"customerEmail":null,"customerAvatar":null,"occurredAt":null,"metadata":[]}"#
        )
        XCTAssertNil(input.clickId)
        XCTAssertNil(input.customerName)
        XCTAssertNil(input.metadata)
        XCTAssertNil(input.occurredAt)
        XCTAssertEqual(input.customerExternalId, "cü🎉")
        let same = try parse(.lead, #"{"eventId":"evt_1","eventName":"Sign up","customerExternalId":"cü🎉"}"#)
        XCTAssertEqual(input.requestHash, same.requestHash, "nulls and [] are absent: the same request")
        let asSale = try parse(
            .sale, #"{"eventId":"evt_1","eventName":"Sign up","customerExternalId":"cü🎉","amount":0}"#)
        XCTAssertNotEqual(asSale.requestHash, same.requestHash)
    }

    func testASaleDefaultsItsNameProcessorAndCurrencyAndTrims() throws {
        let sale = try parse(
            .sale, #"{"eventId":"invoice_x","customerExternalId":"c1","amount":4999,"invoiceId":"  inv_1 "}"#)
        XCTAssertEqual(sale.eventName, "Purchase")
        XCTAssertEqual(sale.paymentProcessor, "custom")
        XCTAssertEqual(sale.currency, "usd")
        XCTAssertEqual(sale.invoiceId, "inv_1")
        XCTAssertEqual(sale.amount, 4999)
        let upper = try parse(
            .sale,
            #"{"eventId":"e","customerExternalId":"c1","amount":1299.0,"currency":"JPY","paymentProcessor":" stripe "}"#
        )
        XCTAssertEqual(upper.currency, "jpy")
        XCTAssertEqual(upper.amount, 1299)
        XCTAssertEqual(upper.paymentProcessor, "stripe")
    }

    func testAmountsAndCurrencies() throws {
        XCTAssertEqual(
            fields(try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":-1}"#)), ["amount"])
        XCTAssertEqual(
            fields(try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":12.5}"#)), ["amount"])
        XCTAssertEqual(
            fields(try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":"100"}"#)), ["amount"])
        XCTAssertEqual(fields(try refusal(.sale, #"{"eventId":"e","customerExternalId":"c"}"#)), ["amount"])
        XCTAssertEqual(
            try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":1,"currency":"xxx"}"#),
            .currencyUnavailable("xxx"))
        XCTAssertEqual(
            try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":1,"currency":"xau"}"#),
            .currencyUnavailable("xau"))
        XCTAssertNil(try refusal(.sale, #"{"eventId":"e","customerExternalId":"c","amount":0,"currency":"kwd"}"#))
    }

    func testOccurredAtIsParsedAndBounded() throws {
        let at = Timestamp.format(milliseconds: now - 3_600_000)
        XCTAssertEqual(
            try parse(.lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","occurredAt":"\#(at)"}"#)
                .occurredAt, now - 3_600_000)
        let offset = try parse(
            .lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","occurredAt":"2026-05-28T22:26:40+02:00"}"#
        )
        XCTAssertEqual(offset.occurredAt, Timestamp.parse("2026-05-28T20:26:40Z"))
        for bad in ["2020-01-01T00:00:00Z", Timestamp.format(milliseconds: now + 3_600_000), "yesterday", "1780000000"]
        {
            XCTAssertEqual(
                fields(
                    try refusal(
                        .lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","occurredAt":"\#(bad)"}"#)),
                ["occurredAt"], bad)
        }
    }

    func testRequiredFieldsAndMetadataLimits() throws {
        XCTAssertEqual(
            Set(fields(try refusal(.lead, #"{"clickId":3}"#))),
            ["eventId", "eventName", "customerExternalId", "clickId"])
        XCTAssertEqual(
            fields(
                try refusal(
                    .lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","metadata":{"apiKey":"x"}}"#)),
            ["metadata.apiKey"])
        XCTAssertEqual(
            fields(try refusal(.lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","metadata":[1]}"#)),
            ["metadata"])
        XCTAssertEqual(
            fields(
                try refusal(
                    .lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","metadata":{"a":{"b":{"c":{}}}}}"#)
            ),
            ["metadata"])
        XCTAssertEqual(
            fields(try refusal(.lead, #"{"eventId":"a\tb","eventName":"n","customerExternalId":"c"}"#)), ["eventId"])
        let kept = try parse(
            .lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","metadata":{"plan":"pro"}}"#)
        XCTAssertEqual(kept.metadata, #"{"plan":"pro"}"#)
        XCTAssertNil(try refusal(.lead, #"{"eventId":"e","eventName":"n","customerExternalId":"c","futureField":1}"#))
    }

    func testErasedIdentifiersAreReserved() throws {
        let lead = #"{"eventName":"Sign up","clickId":"biq_clk_1","#
        XCTAssertEqual(
            fields(try refusal(.lead, lead + #""eventId":"erased_biq_lev_1","customerExternalId":"c1"}"#)),
            ["eventId"])
        XCTAssertEqual(
            fields(try refusal(.lead, lead + #""eventId":"e1","customerExternalId":"erased_biq_cus_1"}"#)),
            ["customerExternalId"])
        XCTAssertNil(try refusal(.lead, lead + #""eventId":"e1","customerExternalId":"not_erased_1"}"#))
    }
}
