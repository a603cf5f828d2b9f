import CSQLite
import Core
import Foundation
import Model
import Synchronization
import XCTest

@testable import Store

/// What both backends must do for conversions (decision 0024), written once and run on each.
enum ConversionStoreCases {
    /// The cases every backend runs (`runContract`).
    static let suite: [ContractCase] = [
        ("lists and erasure", { b in try listsAndErasure(write: { try b.write($0) }, read: { b.committed }) }),
        (
            "events of one millisecond in the order recorded",
            { b in try sameMillisecondInTheOrderRecorded(write: { try b.write($0) }, read: { b.committed }) }
        ),
    ]

    /// Clicks over ~10 s of ids, a few written out of time order (loops' clocks), the
    /// clicks the cases look up among them.
    static func clicks(start: Int64) -> [Click] {
        var random = SystemRandomNumberGenerator()
        return (0..<400).map { i in
            let at = start + Int64(i) * 25 + (i % 7 == 0 ? -40 : 0)
            let id =
                Identifier.clickPrefix + ULID.make(milliseconds: UInt64(at), random: (random.next(), random.next()))
            return Fixture.click(id: id, at: at)
        }
    }

    static func customer(_ externalId: String, click: String?, name: String?, at: Int64) -> Customer {
        Customer(
            id: "biq_cus_" + ULID.make(), externalId: externalId, name: name, email: nil, avatar: nil, clickId: click,
            linkId: click.map { _ in Fixture.linkId }, createdAt: at, updatedAt: at)
    }

    static func event(_ eventId: String, key: [UInt8], customer: String, at: Int64) -> ConversionEvent {
        ConversionEvent(
            id: "biq_sev_" + ULID.make(), type: .sale, eventId: eventId, idempotencyKeyHash: key, requestHash: [9, 9],
            eventName: "Purchase", customerId: customer, clickId: "biq_clk_x", linkId: Fixture.linkId, amount: 4999,
            currency: "usd", paymentProcessor: "stripe", invoiceId: "in_1", metadata: #"{"plan":"pro"}"#,
            occurredAt: at, createdAt: at, response: Array(#"{"event":{}}"#.utf8))
    }
}

extension ConversionStoreCases {
    /// Events of one millisecond come in the order recorded (their ids' ULIDs), not by their
    /// ids' prefixes, which would put every lead before every sale; across pages too.
    static func sameMillisecondInTheOrderRecorded(
        write: (@escaping @Sendable (any StoreTransaction) throws -> Void) throws -> Void,
        read: () -> any StoreReader
    ) throws {
        let made: [ConversionEvent] = [ConversionType.sale, .lead, .sale, .lead].enumerated().map { i, type in
            var e = event("same_\(i)", key: [0xEE, UInt8(i)], customer: "biq_cus_same", at: 500)
            e.id = type.idPrefix + "01J000000000000000000000A\(i)"
            e.type = type
            return e
        }
        try write { tx in
            _ = try tx.upsertCustomer(
                Customer(id: "biq_cus_same", externalId: "same", clickId: "biq_clk_0", createdAt: 1, updatedAt: 1))
            for e in made { XCTAssertTrue(try tx.insertConversionEvent(e)) }
        }
        let reader = read()
        let first = try reader.conversionEvents(type: nil, linkId: nil, after: nil, limit: 3)
        let rest = try reader.conversionEvents(type: nil, linkId: nil, after: first.last?.id, limit: 3)
        XCTAssertEqual((first + rest).map(\.eventId), made.map(\.eventId))
        XCTAssertEqual(
            try reader.conversionEvents(type: nil, linkId: Fixture.linkId, after: made[0].id, limit: 9).map(\.eventId),
            ["same_1", "same_2", "same_3"])
    }

    /// Lists in order, pages by cursor, filters, erasure: on the store `write` and `read` reach.
    static func listsAndErasure(
        write: (@escaping @Sendable (any StoreTransaction) throws -> Void) throws -> Void,
        read: () -> any StoreReader
    ) throws {
        let made: [ConversionEvent] = (0..<9).map { i in
            // Recorded in time order; sales' ids sort after leads' whatever their time.
            let type: ConversionType = i % 3 == 0 ? .sale : .lead
            var e = event("evt_\(i)", key: [UInt8(i)], customer: "biq_cus_\(i % 3)", at: Int64(100 + i))
            e.id = type.idPrefix + String(20 - i)
            e.type = type
            e.linkId = "l\(i % 2)"
            e.occurredAt = Int64(1_000 - i)
            return e
        }
        try write { tx in
            for i in 0..<3 {
                _ = try tx.upsertCustomer(
                    Customer(
                        id: "biq_cus_\(i)", externalId: "c\(i)", name: "N\(i)", email: "e\(i)@x",
                        clickId: "biq_clk_\(i)",
                        linkId: "l\(i % 2)", createdAt: 1, updatedAt: 1))
            }
            for e in made { XCTAssertTrue(try tx.insertConversionEvent(e)) }
        }
        let reader = read()
        XCTAssertEqual(try reader.customers(after: nil, limit: 2).map(\.id), ["biq_cus_0", "biq_cus_1"])
        XCTAssertEqual(try reader.customers(after: "biq_cus_1", limit: 2).map(\.id), ["biq_cus_2"])
        XCTAssertEqual(
            try reader.conversionEvents(customerId: "biq_cus_0", limit: 10).map(\.eventId), ["evt_6", "evt_3", "evt_0"])
        var seen: [String] = []
        var after: String?
        repeat {
            let page = try reader.conversionEvents(type: nil, linkId: nil, after: after, limit: 4)
            seen += page.map(\.eventId)
            after = page.count == 4 ? page.last?.id : nil
        } while after != nil
        XCTAssertEqual(seen, made.map(\.eventId), "in the order recorded, across pages")
        XCTAssertEqual(
            try reader.conversionEvents(type: .sale, linkId: nil, after: nil, limit: 10).map(\.eventId),
            ["evt_0", "evt_3", "evt_6"])
        XCTAssertEqual(
            try reader.conversionEvents(type: .lead, linkId: "l1", after: nil, limit: 10).map(\.eventId),
            ["evt_1", "evt_5", "evt_7"])
        XCTAssertEqual(
            try reader.conversionEvents(type: nil, linkId: "l1", after: made[5].id, limit: 10).map(\.eventId),
            ["evt_7"])

        try write { tx in
            XCTAssertTrue(try tx.eraseCustomer(id: "biq_cus_1", externalId: "erased_biq_cus_1", now: 9))
            XCTAssertFalse(try tx.eraseCustomer(id: "biq_cus_9", externalId: "x", now: 9))
            var rewritten = made[1]
            rewritten.eventId = "erased_evt_1"
            rewritten.idempotencyKeyHash = Array(repeating: 7, count: 32)
            rewritten.requestHash = Array(repeating: 8, count: 32)
            rewritten.eventName = "Sign up"
            rewritten.invoiceId = "in_erased"
            rewritten.metadata = #"{"who":"erased"}"#
            rewritten.response = Array("{}".utf8)
            try tx.rewriteConversionEvent(rewritten)
        }
        let after2 = read()
        XCTAssertNil(try after2.customer(externalId: "c1"))
        let erased = try after2.customer(externalId: "erased_biq_cus_1")
        XCTAssertEqual([erased?.name, erased?.email, erased?.clickId], [nil, nil, "biq_clk_1"])
        XCTAssertNil(try after2.conversionEvent(eventId: "evt_1"))
        let rewritten = try XCTUnwrap(after2.conversionEvent(eventId: "erased_evt_1"))
        XCTAssertEqual(rewritten.response, Array("{}".utf8))
        XCTAssertEqual(
            [rewritten.eventName, rewritten.invoiceId, rewritten.metadata],
            ["Sign up", "in_erased", #"{"who":"erased"}"#])
        XCTAssertEqual(rewritten.requestHash, Array(repeating: 8, count: 32))
        XCTAssertEqual(try after2.conversionEvent(idempotencyKeyHash: Array(repeating: 7, count: 32))?.id, made[1].id)
        XCTAssertNil(try after2.conversionEvent(idempotencyKeyHash: made[1].idempotencyKeyHash))
        XCTAssertEqual(try after2.conversionEvents(customerId: "biq_cus_1", limit: 10).count, 3, "events kept")
    }
}

/// SQLite: the click found by the time in its id (no index on `clicks.id`, decision 0010).
final class ConversionStoreTests: StoreTestCase {
    func testAClickIsFoundByItsIdAndOnlyItsOwn() throws {
        let clicks = ConversionStoreCases.clicks(start: 1_700_000_000_000)
        try write { tx in for c in clicks { try tx.insertClick(c) } }
        for c in clicks.enumerated().filter({ $0.offset % 37 == 0 || $0.offset == clicks.count - 1 }).map(\.element) {
            XCTAssertEqual(try reader.conversionClick(id: c.id), c, c.id)
        }
        // An id of the same time that no click has; the times before and after all clicks.
        let near = Identifier.clickPrefix + ULID.make(milliseconds: UInt64(clicks[200].at), random: (1, 2))
        XCTAssertNil(try reader.conversionClick(id: near))
        XCTAssertNil(
            try reader.conversionClick(id: Identifier.clickPrefix + ULID.make(milliseconds: 1_000, random: (1, 2))))
        XCTAssertNil(
            try reader.conversionClick(
                id: Identifier.clickPrefix + ULID.make(milliseconds: 1_800_000_000_000, random: (1, 2))))
        for bad in ["", "biq_clk_", "biq_clk_x", "biq_lnk_" + String(clicks[0].id.dropFirst(8)), clicks[0].id + "0"] {
            XCTAssertNil(try reader.conversionClick(id: bad), bad)
        }
    }

    /// Rows are in time order only roughly: a click that reached the writer late sits
    /// among later ones and is found in a wider window; one written further from its
    /// time than the widest window is not.
    func testAClickWrittenOutOfOrderIsFoundWithinTheSlack() throws {
        let start: Int64 = 1_700_000_000_000
        var clicks = ConversionStoreCases.clicks(start: start)  // 10 s of clicks, 25 ms apart
        func click(at: Int64, _ r: UInt64) -> Click {
            Fixture.click(id: Identifier.clickPrefix + ULID.make(milliseconds: UInt64(at), random: (r, r)), at: at)
        }
        let lateBy900ms = click(at: start + 5_000, 1)
        let lateBy8s = click(at: start + 1_000, 2)
        let early = click(at: start + 9_990, 3)
        let tooLate = click(at: start - 61_000, 4)
        clicks.insert(early, at: 10)
        clicks.insert(lateBy900ms, at: 236)
        clicks.append(contentsOf: [lateBy8s, tooLate])
        let rows = clicks
        try write { tx in for c in rows { try tx.insertClick(c) } }
        for c in [lateBy900ms, lateBy8s, early] { XCTAssertEqual(try reader.conversionClick(id: c.id), c, c.id) }
        XCTAssertNil(try reader.conversionClick(id: tooLate.id))
        XCTAssertEqual(try reader.conversionClick(id: clicks[300].id), clicks[300])
    }

    /// The look-up's cost does not grow with the table: it reads a few rows at each end and
    /// a binary search's worth, counted in SQLite's virtual-machine steps (a progress
    /// handler every 100 steps), not in time. A scan of the clicks (`SELECT min(rowid),
    /// max(rowid)` did one: 40 ms per lead at 300,000 clicks) takes at least a step per row.
    func testFindingAClickReadsAFewRowsNotTheTable() throws {
        let start: Int64 = 1_700_000_000_000
        let rows = 60_000
        let sought = Identifier.clickPrefix + ULID.make(milliseconds: UInt64(start + 150_001), random: (1, 1))
        try write { tx in
            var random = SystemRandomNumberGenerator()
            for i in 0..<rows {
                let at = start + Int64(i) * 5
                let id =
                    Identifier.clickPrefix
                    + ULID.make(milliseconds: UInt64(at), random: (random.next(), random.next()))
                try tx.insertClick(Fixture.click(id: id, at: at))
                if i == rows / 2 { try tx.insertClick(Fixture.click(id: sought, at: start + 150_001)) }
            }
        }
        let db = try XCTUnwrap(reader as? SQLiteQueries).db
        let ticks = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { ticks.deallocate() }
        ticks.pointee = 0
        sqlite3_progress_handler(
            db.handle, 100,
            { context in
                context!.assumingMemoryBound(to: Int.self).pointee += 1
                return 0
            }, ticks)
        defer { sqlite3_progress_handler(db.handle, 0, nil, nil) }
        XCTAssertEqual(try reader.conversionClick(id: sought)?.id, sought)
        let steps = ticks.pointee * 100
        XCTAssertGreaterThan(steps, 0, "the handler counts this connection's steps")
        XCTAssertLessThan(steps, 10_000, "\(steps) steps for one click among \(rows)")
        // The same handler sees a scan: it is not blind to what the look-up must avoid.
        ticks.pointee = 0
        XCTAssertEqual(try db.integer("SELECT max(at) FROM clicks"), start + Int64(rows - 1) * 5)
        XCTAssertGreaterThan(ticks.pointee * 100, rows, "a scan takes a step per row")
    }

    func testNoClicksAtAll() throws {
        XCTAssertNil(try reader.conversionClick(id: Identifier.clickPrefix + ULID.make()))
    }

    func testACustomerKeepsItsFirstClickAndItsGivenFields() throws {
        let first = ConversionStoreCases.customer("c1", click: "biq_clk_a", name: "Ann", at: 1)
        let stored = try write { tx in try tx.upsertCustomer(first) }
        XCTAssertEqual(stored, first)
        let again = try write { tx in
            try tx.upsertCustomer(ConversionStoreCases.customer("c1", click: "biq_clk_b", name: nil, at: 2))
        }
        XCTAssertEqual(again.id, first.id)
        XCTAssertEqual(again.clickId, "biq_clk_a")
        XCTAssertEqual(again.name, "Ann")
        XCTAssertEqual(again.updatedAt, 2)
        XCTAssertEqual(try reader.customer(externalId: "c1"), again)
        XCTAssertNil(try reader.customer(externalId: "c2"))
    }

    func testAnEventIsWrittenOncePerEventIdAndPerKey() throws {
        let event = ConversionStoreCases.event("invoice_1", key: [1], customer: "biq_cus_1", at: 5)
        XCTAssertTrue(try write { tx in try tx.insertConversionEvent(event) })
        XCTAssertFalse(
            try write { tx in
                try tx.insertConversionEvent(ConversionStoreCases.event("invoice_1", key: [2], customer: "c", at: 6))
            })
        XCTAssertFalse(
            try write { tx in
                try tx.insertConversionEvent(ConversionStoreCases.event("invoice_2", key: [1], customer: "c", at: 6))
            })
        XCTAssertEqual(try reader.conversionEvent(eventId: "invoice_1"), event)
        XCTAssertEqual(try reader.conversionEvent(idempotencyKeyHash: [1]), event)
        XCTAssertNil(try reader.conversionEvent(eventId: "invoice_2"))
    }
}

/// PostgreSQL: the same, the click through its day's partition.
final class PGConversionStoreTests: PGTestCase {
    func testAClickIsFoundByItsIdAndTheRowsAreKeptOnce() throws {
        let clicks = ConversionStoreCases.clicks(start: now - 5_000)
        try inTransaction { tx in for c in clicks { try tx.insertClick(c) } }
        XCTAssertEqual(try reader.conversionClick(id: clicks[123].id), clicks[123])
        // Still held by the writer's deferred inserts: the transaction sees its own.
        let late = Fixture.click(
            id: Identifier.clickPrefix + ULID.make(milliseconds: UInt64(now), random: (3, 4)), at: now)
        try inTransaction { tx in
            try tx.insertClick(late)
            XCTAssertEqual(try tx.conversionClick(id: late.id), late)
        }
        XCTAssertNil(
            try reader.conversionClick(
                id: Identifier.clickPrefix + ULID.make(milliseconds: UInt64(now), random: (1, 2))))
        XCTAssertNil(try reader.conversionClick(id: "biq_clk_x"))

        let first = ConversionStoreCases.customer("c1", click: "biq_clk_a", name: "Ann", at: 1)
        XCTAssertEqual(try inTransaction { tx in try tx.upsertCustomer(first) }, first)
        let again = try inTransaction { tx in
            try tx.upsertCustomer(ConversionStoreCases.customer("c1", click: "biq_clk_b", name: nil, at: 2))
        }
        XCTAssertEqual([again.id, again.clickId, again.name], [first.id, "biq_clk_a", "Ann"])

        let event = ConversionStoreCases.event("invoice_1", key: [1], customer: first.id, at: 5)
        XCTAssertTrue(try inTransaction { tx in try tx.insertConversionEvent(event) })
        XCTAssertFalse(
            try inTransaction { tx in
                try tx.insertConversionEvent(ConversionStoreCases.event("invoice_1", key: [2], customer: "c", at: 6))
            })
        XCTAssertFalse(
            try inTransaction { tx in
                try tx.insertConversionEvent(ConversionStoreCases.event("invoice_2", key: [1], customer: "c", at: 6))
            })
        XCTAssertEqual(try reader.conversionEvent(eventId: "invoice_1"), event)
        XCTAssertEqual(try reader.conversionEvent(idempotencyKeyHash: [1]), event)
    }

    /// Two nodes writing the same event at once: the second insert waits for the first
    /// transaction, then inserts nothing, and the first one's row is read in the same
    /// transaction (read committed), as `ConversionOperations` answers a replay.
    func testTheSameEventFromTwoConnectionsAtOnceIsOneRowAndTheLoserReadsIt() throws {
        let first = ConversionStoreCases.event("evt_race", key: [42], customer: "c", at: 1)
        var racing = ConversionStoreCases.event("evt_race", key: [42], customer: "c", at: 2)
        racing.id = "biq_sev_other"
        let second = racing
        let otherDB = try database.connect()
        let other = PGTransaction(db: otherDB)
        other.beginBatch(now: now)
        tx.beginBatch(now: now)
        try db.execute("BEGIN")
        XCTAssertTrue(try tx.insertConversionEvent(first))
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<(Bool?, String?)>((nil, nil))
        let handed = Handover((otherDB, other, second))
        let thread = OSThread.start(name: "other-node") {
            let (otherDB, other, second) = handed.value
            do {
                try otherDB.execute("BEGIN")
                let inserted = try other.insertConversionEvent(second)
                let seen = try other.conversionEvent(eventId: "evt_race")?.id
                try otherDB.execute("COMMIT")
                outcome.withLock { $0 = (inserted, seen) }
            } catch {
                outcome.withLock { $0 = (nil, "\(error)") }
            }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 0.3), .timedOut, "the second insert waits for the first")
        try db.execute("COMMIT")
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        thread.join()
        let (inserted, seen) = outcome.withLock { $0 }
        XCTAssertEqual(inserted, false)
        XCTAssertEqual(seen, first.id)
    }
}
