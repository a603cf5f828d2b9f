import Core
import Model
import XCTest

@testable import Store

/// Decision 0008: an open event whose Idempotency-Key is its eventId (what the
/// SDKs send) keeps no key hash and no entry in the idempotency index, yet is
/// found by that key, and every key stays unique per app whichever form holds it.
final class OpenEventKeyTests: StoreTestCase {
    private func open(_ id: String, event: String, key: String, app: String = Fixture.appId) -> OpenEvent {
        Fixture.open(id: id, eventId: event, app: app, idempotencyKeyHash: SHA256.hash(key))
    }

    private func insert(_ event: OpenEvent, key: String) -> StoreError? {
        writeError { tx in try tx.insertOpenEvent(event, idempotencyKey: key) }
    }

    private func find(event: String, key: String, app: String = Fixture.appId) throws -> String? {
        try reader.openEvent(app: app, eventId: event, idempotencyKey: key, keyHash: SHA256.hash(key))?.id
    }

    func testAnEventThatIsItsOwnKeyStoresNoHash() throws {
        XCTAssertNil(insert(open("biq_open_1", event: "open_a1", key: "open_a1"), key: "open_a1"))
        let raw = try outsideConnection()
        XCTAssertEqual(try raw.integer("SELECT length(idempotency_key_hash) FROM open_events"), 0)
        XCTAssertEqual(try raw.integer("SELECT count(*) FROM open_events WHERE length(idempotency_key_hash) > 0"), 0)
        // Read back as the model says: the key's SHA-256.
        XCTAssertEqual(try reader.openEvent(id: "biq_open_1")?.idempotencyKeyHash, SHA256.hash("open_a1"))
        XCTAssertEqual(try find(event: "open_a1", key: "open_a1"), "biq_open_1")
    }

    /// Schema version 4 (issue 14): the receipt and its expiry round-trip with the
    /// event, whichever form keeps its key; an event without one reads back nil.
    func testAnEventKeepsItsReceiptAndItsExpiryInEitherKeyForm() throws {
        var own = open("biq_open_1", event: "open_a1", key: "open_a1")
        own.receipt = Array("header.claims.signature".utf8)
        own.receiptExpiresAt = 620_000
        var hashed = open("biq_open_2", event: "open_b2", key: "key_b2")
        hashed.receipt = [UInt8](repeating: 0x41, count: 1_200)
        hashed.receiptExpiresAt = 630_000
        XCTAssertNil(insert(own, key: "open_a1"))
        XCTAssertNil(insert(hashed, key: "key_b2"))
        XCTAssertNil(insert(open("biq_open_3", event: "open_c3", key: "open_c3"), key: "open_c3"))
        var unsigned = open("biq_open_4", event: "open_d4", key: "open_d4")
        unsigned.receiptInput = Array("header.payload".utf8)
        unsigned.receiptExpiresAt = 640_000
        XCTAssertNil(insert(unsigned, key: "open_d4"))
        let byKey = try reader.openEvent(
            app: Fixture.appId, eventId: "open_new", idempotencyKey: "key_b2", keyHash: SHA256.hash("key_b2"))
        XCTAssertEqual(byKey?.receipt, hashed.receipt)
        XCTAssertEqual(byKey?.receiptExpiresAt, 630_000)
        let byEvent = try reader.openEvent(app: Fixture.appId, eventId: "open_a1")
        XCTAssertEqual(byEvent?.receipt, own.receipt)
        XCTAssertEqual(byEvent?.receiptExpiresAt, 620_000)
        let none = try reader.openEvent(id: "biq_open_3")
        XCTAssertNil(none?.receipt)
        XCTAssertNil(none?.receiptExpiresAt)
        XCTAssertNil(none?.receiptInput)
        let stored = try reader.openEvent(id: "biq_open_4")
        XCTAssertEqual(stored?.receiptInput, unsigned.receiptInput, "schema 8: a receipt stored unsigned")
        XCTAssertNil(stored?.receipt)
        XCTAssertEqual(stored?.receiptInput(validAt: 639_999), unsigned.receiptInput)
        XCTAssertNil(stored?.receiptInput(validAt: 640_000))
    }

    func testAStoredReceiptIsValidUntilItsExpiryExcluded() {
        var event = open("biq_open_1", event: "open_a1", key: "open_a1")
        XCTAssertNil(event.receipt(validAt: 0), "no receipt")
        event.receipt = [1, 2, 3]
        XCTAssertNil(event.receipt(validAt: 0), "a receipt without an expiry is never returned")
        event.receiptExpiresAt = 600_000
        XCTAssertEqual(event.receipt(validAt: 599_999), [1, 2, 3])
        XCTAssertNil(event.receipt(validAt: 600_000))
    }

    /// The transaction skips the insert's own check right after a lookup found the
    /// eventId and key free, but never after another event was written.
    func testAFreeLookupIsForgottenOnceAnotherEventIsWritten() throws {
        let key = "key_shared"
        let (e1, e2) = (open("biq_open_1", event: "open_e1", key: key), open("biq_open_2", event: "open_e2", key: key))
        let error = writeError { tx in
            let free = try tx.openEvent(
                app: Fixture.appId, eventId: "open_e1", idempotencyKey: key, keyHash: SHA256.hash(key))
            XCTAssertNil(free)
            try tx.insertOpenEvent(e2, idempotencyKey: key)
            try tx.insertOpenEvent(e1, idempotencyKey: key)
        }
        XCTAssertEqual(error, .conflict(.idempotencyKey))
        // And the usual case: look up, then insert.
        let e3 = open("biq_open_3", event: "open_e3", key: "open_e3")
        XCTAssertNil(
            writeError { tx in
                let free = try tx.openEvent(
                    app: Fixture.appId, eventId: "open_e3", idempotencyKey: "open_e3",
                    keyHash: SHA256.hash("open_e3"))
                XCTAssertNil(free)
                try tx.insertOpenEvent(e3, idempotencyKey: "open_e3")
            })
        XCTAssertEqual(try find(event: "x_other_1", key: "open_e3"), "biq_open_3")
        XCTAssertEqual(try outsideConnection().integer("SELECT length(idempotency_key_hash) FROM open_events"), 0)
    }

    func testTheKeyLookupsUseTheirIndexes() throws {
        let plan = try write { tx in
            try (tx as! SQLiteTransaction).db.queryAll("EXPLAIN QUERY PLAN " + SQLiteQueries.selectOpenByIdempotency) {
                s in s.text(3)
            }
        }
        XCTAssertTrue(plan.joined().contains("open_events_idempotency"), plan.joined())
    }

    private func claim(
        _ token: UInt8, app: String = Fixture.appId, platform: Platform = .android, now: Int64 = 50_000,
        link: String? = nil, instance: String = "install_a", open: String = "biq_open_a"
    ) throws -> HandoffView? {
        try write { tx in
            try tx.claimHandoff(
                tokenHash: [UInt8](repeating: token, count: 32), app: app, platform: platform, now: now, linkId: link,
                instance: instance, openId: open)
        }
    }

    func testOpenEventsArePrunedAppByAppExactly() throws {
        try write { tx in
            for (i, app) in ["biq_mapp_a", "biq_mapp_b", "biq_mapp_c"].enumerated() {
                for j in 0..<4 {
                    try tx.insertOpenEvent(
                        Fixture.open(id: "biq_open_\(i)_\(j)", eventId: "evt_\(i)_\(j)", app: app, at: Int64(j * 100)))
                }
            }
        }
        // Older than 250: j = 0, 1, 2 of each app (9 rows), whatever the order of insertion.
        XCTAssertEqual(try store.prune(olderThan: 250, now: 0), 9)
        XCTAssertEqual(try count("open_events"), 3)
        for i in 0..<3 { XCTAssertNotNil(try reader.openEvent(id: "biq_open_\(i)_3")) }
    }
}
