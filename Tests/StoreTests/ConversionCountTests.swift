import Core
import Model
import XCTest

@testable import Store

/// The per-link daily counts of leads and sales (schema 12, decision 0026), written once
/// and run on each backend: added in the transaction that inserts the event, at the end
/// of the batch; by the UTC day the event occurred, type and currency; a conditional
/// insert that lost (the same event again) adds nothing; a rolled-back job adds nothing.
enum ConversionCountCases {
    static let day: Int64 = 86_400_000

    static func event(
        _ n: Int, type: ConversionType, link: String? = Fixture.linkId, amount: Int64? = nil, currency: String? = nil,
        at: Int64
    ) -> ConversionEvent {
        ConversionEvent(
            id: type.idPrefix + "cc\(n)", type: type, eventId: "evt_cc\(n)", idempotencyKeyHash: [0xCC, UInt8(n)],
            requestHash: [1], eventName: type == .lead ? "Sign up" : "Purchase", customerId: "biq_cus_cc",
            clickId: "biq_clk_cc", linkId: link, amount: amount, currency: currency, paymentProcessor: nil,
            invoiceId: nil, metadata: nil, occurredAt: at, createdAt: at, response: [])
    }

    /// Two batches over two days, three currencies, a lead without a link, a replay.
    static func writes(now: Int64) -> [@Sendable (any StoreTransaction) throws -> Void] {
        [
            { tx in
                XCTAssertTrue(try tx.insertConversionEvent(event(1, type: .lead, at: now)))
                XCTAssertTrue(try tx.insertConversionEvent(event(2, type: .lead, at: now - day)))
                XCTAssertTrue(
                    try tx.insertConversionEvent(event(3, type: .sale, amount: 4999, currency: "usd", at: now)))
                XCTAssertTrue(try tx.insertConversionEvent(event(4, type: .sale, amount: 1, currency: "usd", at: now)))
                XCTAssertTrue(
                    try tx.insertConversionEvent(event(5, type: .sale, amount: 700, currency: "eur", at: now)))
                XCTAssertTrue(try tx.insertConversionEvent(event(6, type: .lead, link: nil, at: now)))
            },
            { tx in
                // The same event again writes nothing and counts nothing.
                XCTAssertFalse(
                    try tx.insertConversionEvent(event(3, type: .sale, amount: 4999, currency: "usd", at: now)))
                XCTAssertTrue(
                    try tx.insertConversionEvent(event(7, type: .sale, amount: 300, currency: "jpy", at: now - day)))
                XCTAssertTrue(
                    try tx.insertConversionEvent(event(8, type: .sale, amount: 1000, currency: "usd", at: now)))
            },
        ]
    }

    static func expected(now: Int64) -> [LinkAnalytics.ConversionCount] {
        let today = LinkCounter.day(now)
        return [
            .init(day: today - 1, type: .lead, currency: nil, count: 1, amount: 0),
            .init(day: today - 1, type: .sale, currency: "jpy", count: 1, amount: 300),
            .init(day: today, type: .lead, currency: nil, count: 1, amount: 0),
            .init(day: today, type: .sale, currency: "eur", count: 1, amount: 700),
            .init(day: today, type: .sale, currency: "usd", count: 3, amount: 6000),
        ]
    }
}

final class ConversionCountTests: StoreTestCase {
    static let now: Int64 = 1_700_000_000_000

    func testLeadsAndSalesAreCountedByDayTypeAndCurrency() throws {
        for body in ConversionCountCases.writes(now: Self.now) { try write(body) }
        let today = LinkCounter.day(Self.now)
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today - 5, throughDay: today).conversions,
            ConversionCountCases.expected(now: Self.now))
        // The overview's days add them up across links.
        let days = try reader.workspaceActivity(fromDay: today - 1, throughDay: today, topLinks: 0).days
        XCTAssertEqual(days.map(\.leads), [1, 1])
        XCTAssertEqual(days.map(\.sales), [1, 4])
        XCTAssertEqual(days.last?.revenue, ["usd": 6000, "eur": 700])
    }

    func testAJobThatFailsAfterItsInsertCountsNothing() throws {
        struct Refused: Error {}
        XCTAssertThrowsError(
            try write { tx in
                _ = try tx.insertConversionEvent(
                    ConversionCountCases.event(1, type: .sale, amount: 5, currency: "usd", at: Self.now))
                throw Refused()
            })
        try write { tx in
            _ = try tx.insertConversionEvent(ConversionCountCases.event(2, type: .lead, at: Self.now))
        }
        let today = LinkCounter.day(Self.now)
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).conversions,
            [.init(day: today, type: .lead, currency: nil, count: 1, amount: 0)])
    }
}

/// The same on PostgreSQL, deferred or not, and step 12's count of the events already stored.
final class PGConversionCountTests: PGTestCase {
    func testTheCountsAreTheSameAsSQLites() throws {
        let writes = ConversionCountCases.writes(now: now)
        try applyToBoth(writes[0])
        // The second batch without deferral (the writer's pass with savepoints).
        try sqliteStore.writeAndWait(writes[1])
        try inTransaction(deferInserts: false) { tx in try writes[1](tx) }
        let today = LinkCounter.day(now)
        try assertSameAsSQLite("conversion counts") {
            try $0.linkAnalytics(link: Fixture.linkId, fromDay: self.today(-5), throughDay: today)
        }
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today - 5, throughDay: today).conversions,
            ConversionCountCases.expected(now: now))
        try assertSameAsSQLite("the overview's days") {
            try $0.workspaceActivity(fromDay: self.today(-1), throughDay: today, topLinks: 0)
        }
    }

    func testTheCountRowsWaitForTheEndOfTheBatch() throws {
        try inTransaction { tx in
            XCTAssertTrue(
                try tx.insertConversionEvent(ConversionCountCases.event(1, type: .lead, at: self.now)))
            XCTAssertEqual(try self.integer("SELECT count(*) FROM link_conversion_counts"), 0, "held in the batch")
        }
        XCTAssertEqual(try integer("SELECT sum(count)::bigint FROM link_conversion_counts"), 1)
    }

    private func today(_ offset: Int64) -> Int64 { LinkCounter.day(now) + offset }
}

/// Step 12 on a database that already holds leads and sales counts them once.
final class PGConversionCountMigrationTests: XCTestCase {
    func testStepTwelveCountsTheEventsAlreadyStored() throws {
        let now = PGTestCase.now
        let database = try PGTestDatabase(now: now, migrations: PGMigrations.all.filter { $0.version <= 11 })
        defer { database.drop() }
        let connection = try database.connect()
        let day: Int64 = 86_400_000
        try connection.execute(
            """
            INSERT INTO conversion_events (id, type, event_id, idempotency_key_hash, request_hash, event_name,
                customer_id, click_id, link_id, amount, currency, occurred_at, created_at, response)
            VALUES ('e1', 'lead', 'x1', '\\x01', '\\x00', 'Sign up', 'c', 'k', 'l1', NULL, NULL, \(now), \(now), '\\x00'),
                   ('e2', 'sale', 'x2', '\\x02', '\\x00', 'Buy', 'c', 'k', 'l1', 4999, 'usd', \(now), \(now), '\\x00'),
                   ('e3', 'sale', 'x3', '\\x03', '\\x00', 'Buy', 'c', 'k', 'l1', 1, 'usd', \(now), \(now), '\\x00'),
                   ('e4', 'sale', 'x4', '\\x04', '\\x00', 'Buy', 'c', 'k', 'l1', 5, 'eur', \(now - day), \(now), '\\x00'),
                   ('e5', 'lead', 'x5', '\\x05', '\\x00', 'Sign up', 'c', 'k', NULL, NULL, NULL, \(now), \(now), '\\x00');
            """)
        try PGMigrations.apply(on: connection)
        let today = LinkCounter.day(now)
        XCTAssertEqual(
            try PGQueries(db: connection).linkAnalytics(link: "l1", fromDay: today - 1, throughDay: today).conversions,
            [
                .init(day: today - 1, type: .sale, currency: "eur", count: 1, amount: 5),
                .init(day: today, type: .lead, currency: nil, count: 1, amount: 0),
                .init(day: today, type: .sale, currency: "usd", count: 2, amount: 5000),
            ])
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), 1, "an additive step")
    }
}
