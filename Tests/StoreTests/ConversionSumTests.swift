import Core
import Model
import XCTest

@testable import Store

/// Sums of sales past 64 bits (issue 33 item 1, decision 0029), written once and run on
/// each backend: 1,025 sales of the largest amount the API takes in one batch (the
/// writer's sum and the new row pass 2^63 - 1), one more in the next batch (a stored row's
/// carry), and 600 on another link the same day (the overview's sum of the day passes 64
/// bits across rows, where SQLite's `sum()` failed). Every read is exact.
enum ConversionSumCases {
    /// `ConversionInput.maxAmount`: 2^53 - 1.
    static let largest: Int64 = 9_007_199_254_740_991
    static let other = "biq_lnk_01HSUMS000000000000000000"

    static func sale(_ n: Int, link: String = Fixture.linkId, amount: Int64 = largest, at: Int64) -> ConversionEvent {
        withUnsafeBytes(of: UInt32(n).bigEndian) { id in
            ConversionEvent(
                id: "biq_sev_sum\(n)", type: .sale, eventId: "evt_sum\(n)", idempotencyKeyHash: [0x5E] + Array(id),
                requestHash: [1], eventName: "Purchase", customerId: "biq_cus_sum", clickId: "biq_clk_sum",
                linkId: link, amount: amount, currency: "vnd", paymentProcessor: nil, invoiceId: nil, metadata: nil,
                occurredAt: at, createdAt: at, response: [], variant: 2)
        }
    }

    static func writes(now: Int64) -> [@Sendable (any StoreTransaction) throws -> Void] {
        [
            { tx in for n in 0..<1_025 { XCTAssertTrue(try tx.insertConversionEvent(sale(n, at: now))) } },
            { tx in
                XCTAssertTrue(try tx.insertConversionEvent(sale(1_025, at: now)))
                for n in 2_000..<2_600 { XCTAssertTrue(try tx.insertConversionEvent(sale(n, link: other, at: now))) }
            },
        ]
    }

    static func expected(now: Int64) -> [LinkAnalytics.ConversionCount] {
        [.init(day: LinkCounter.day(now), type: .sale, currency: "vnd", count: 1_026, amount: 1_026 * Int128(largest))]
    }

    /// The same sales by their click's arm (schema 17): the same split of the sum.
    static func expectedByArm(now: Int64) -> [LinkAnalytics.VariantConversionCount] {
        [
            .init(
                day: LinkCounter.day(now), variant: 2, type: .sale, currency: "vnd", count: 1_026,
                amount: 1_026 * Int128(largest))
        ]
    }

    static func day(now: Int64) -> WorkspaceActivity.Day {
        .init(
            day: LinkCounter.day(now), clicks: 0, opens: 0, sales: 1_626, revenue: ["vnd": 1_626 * Int128(largest)])
    }
}

final class ConversionSumTests: StoreTestCase {
    static let now: Int64 = 1_700_000_000_000

    func testSumsPastSixtyFourBitsAreStoredAndReadExactly() throws {
        for body in ConversionSumCases.writes(now: Self.now) { try write(body) }
        let today = LinkCounter.day(Self.now)
        let counts = try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).conversions
        XCTAssertEqual(counts, ConversionSumCases.expected(now: Self.now))
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).variantConversions,
            ConversionSumCases.expectedByArm(now: Self.now))
        XCTAssertGreaterThan(counts[0].amount, Int128(Int64.max))
        XCTAssertEqual(
            try reader.workspaceActivity(fromDay: today, throughDay: today, topLinks: 0).days,
            [ConversionSumCases.day(now: Self.now)])
        // The row as kept: 10^18 * high + low, the low part below 10^18 (both integers).
        let row = try SQLiteConnection.open(
            path: directory.path + "/" + SQLiteStore.fileName, create: false, busyTimeoutMilliseconds: 1_000,
            cacheKiB: 1_024, queryOnly: true
        ).queryFirst(
            "SELECT amount, amount_high, typeof(amount) FROM link_conversion_counts WHERE link_id = ?1",
            { $0.bind(1, Fixture.linkId) }
        ) { s in (s.int64(0), s.int64(1), s.text(2)) }
        XCTAssertEqual(row?.0, Int64(1_026 * Int128(ConversionSumCases.largest) % 1_000_000_000_000_000_000))
        XCTAssertEqual(row?.1, 9)
        XCTAssertEqual(row?.2, "integer")
    }
}

/// Step 15 on a file an older binary wrote: a day's sum it kept as an integer above 10^18
/// is split, and one its `+` had turned into a REAL (lossy) is counted again from the events.
final class ConversionSumMigrationTests: XCTestCase {
    func testStepFifteenSplitsLargeSumsAndCountsOverflowedOnesAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let db = try SQLiteConnection.open(
            path: directory.databasePath, create: true, busyTimeoutMilliseconds: 1_000, cacheKiB: 1_024,
            queryOnly: false)
        try Migrations.apply(on: db, migrations: Migrations.all.filter { $0.version <= 14 })
        let largest = ConversionSumCases.largest
        // 1,025 sales of link l1 (day 3) and 1,000 of l2 (day 4), as the older binary stored them.
        try db.exec(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2024)
            INSERT INTO conversion_events (id, type, event_id, idempotency_key_hash, request_hash, event_name,
                customer_id, link_id, amount, currency, occurred_at, created_at, response)
            SELECT 'e' || i, 'sale', 'x' || i, CAST(i AS TEXT), X'00', 'Buy', 'c',
                   CASE WHEN i < 1025 THEN 'l1' ELSE 'l2' END, \(largest), 'vnd',
                   CASE WHEN i < 1025 THEN 3 ELSE 4 END * 86400000 + i, 0, X'00'
            FROM n;
            INSERT INTO link_conversion_counts VALUES ('l1', 3, 'sale', 'vnd', 1025, 9.232879236109525e18);
            INSERT INTO link_conversion_counts VALUES ('l2', 4, 'sale', 'vnd', 1000, \(1_000 * largest));
            INSERT INTO link_conversion_counts VALUES ('l2', 4, 'lead', '', 2, 0);
            """)
        XCTAssertEqual(
            try db.queryFirst("SELECT typeof(amount) FROM link_conversion_counts WHERE link_id = 'l1'") { $0.text(0) },
            "real")
        db.close()

        let store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        defer { store.close() }
        let reader = store.reader(loop: 0)
        XCTAssertEqual(
            try reader.linkAnalytics(link: "l1", fromDay: 0, throughDay: 9).conversions,
            [.init(day: 3, type: .sale, currency: "vnd", count: 1_025, amount: 1_025 * Int128(largest))])
        XCTAssertEqual(
            try reader.linkAnalytics(link: "l2", fromDay: 0, throughDay: 9).conversions,
            [
                .init(day: 4, type: .lead, currency: nil, count: 2, amount: 0),
                .init(day: 4, type: .sale, currency: "vnd", count: 1_000, amount: 1_000 * Int128(largest)),
            ])
    }
}

/// The same on PostgreSQL, and rows an older binary of the fleet left.
final class PGConversionSumTests: PGTestCase {
    func testSumsPastSixtyFourBitsAreTheSameAsSQLites() throws {
        let writes = ConversionSumCases.writes(now: now)
        try applyToBoth(writes[0])
        try sqliteStore.writeAndWait(writes[1])
        try inTransaction(deferInserts: false) { tx in try writes[1](tx) }
        let today = LinkCounter.day(now)
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).conversions,
            ConversionSumCases.expected(now: now))
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).variantConversions,
            ConversionSumCases.expectedByArm(now: now))
        try assertSameAsSQLite("the link's counts") {
            try $0.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today)
        }
        XCTAssertEqual(
            try reader.workspaceActivity(fromDay: today, throughDay: today, topLinks: 0).days,
            [ConversionSumCases.day(now: now)])
        try assertSameAsSQLite("the overview's day") {
            try $0.workspaceActivity(fromDay: today, throughDay: today, topLinks: 0)
        }
    }

    /// An older binary beside this one adds to `amount` alone: up to 2^63 - 1 there. The next
    /// sale this binary counts carries it (in `numeric`), and the reads were exact before.
    func testARowAnOlderBinaryLeftAboveTenToTheEighteenIsReadAndCarried() throws {
        let today = LinkCounter.day(now)
        let left = Int64.max - 5
        try reader.db.execute(
            """
            INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount)
            VALUES ('\(Fixture.linkId)', \(today), 'sale', 'vnd', 1024, \(left))
            """)
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).conversions.map(\.amount),
            [Int128(left)])
        try inTransaction { tx in _ = try tx.insertConversionEvent(ConversionSumCases.sale(1, at: self.now)) }
        XCTAssertEqual(
            try reader.linkAnalytics(link: Fixture.linkId, fromDay: today, throughDay: today).conversions,
            [
                .init(
                    day: today, type: .sale, currency: "vnd", count: 1_025,
                    amount: Int128(left) + Int128(ConversionSumCases.largest))
            ])
        XCTAssertLessThan(try integer("SELECT amount FROM link_conversion_counts"), StoredAmount.base)
    }
}

/// Step 15 on a database an older binary wrote: a sum above 10^18 is split, nothing else moves.
final class PGConversionSumMigrationTests: XCTestCase {
    func testStepFifteenSplitsLargeSumsAndIsAdditive() throws {
        let database = try PGTestDatabase(
            now: PGTestCase.now, migrations: PGMigrations.all.filter { $0.version <= 14 })
        defer { database.drop() }
        let connection = try database.connect()
        let big = 1_000 * ConversionSumCases.largest
        try connection.execute(
            """
            INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount)
            VALUES ('l1', 3, 'sale', 'vnd', 1000, \(big)), ('l1', 3, 'sale', 'usd', 1, 4999)
            """)
        try PGMigrations.apply(on: connection)
        XCTAssertEqual(
            try PGQueries(db: connection).linkAnalytics(link: "l1", fromDay: 3, throughDay: 3).conversions,
            [
                .init(day: 3, type: .sale, currency: "usd", count: 1, amount: 4_999),
                .init(day: 3, type: .sale, currency: "vnd", count: 1_000, amount: Int128(big)),
            ])
        let rows = try connection.run(
            "sums", "SELECT amount, amount_high FROM link_conversion_counts WHERE currency = 'vnd'")
        XCTAssertEqual(rows.int(0, 0), big % StoredAmount.base)
        XCTAssertEqual(rows.int(0, 1), big / StoredAmount.base)
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), 1, "an additive step")
    }
}
