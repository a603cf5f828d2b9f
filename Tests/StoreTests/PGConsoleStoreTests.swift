import Core
import Model
import XCTest

@testable import Store

/// The console's reads and sessions on PostgreSQL: the same answers as SQLite for the same
/// writes (`ConsoleStoreTests` pins SQLite's), and every query able to use its index.
final class PGConsoleStoreTests: PGTestCase {
    static let day: Int64 = 86_400_000
    var today: Int64 { now / Self.day }

    private static func activity(_ now: Int64) -> @Sendable (any StoreTransaction) throws -> Void {
        { tx in
            for n in 0..<30 {
                var click = Fixture.click(id: "biq_clk_\(n)", at: now - Int64(n % 3) * day - Int64(n))
                click.linkId = n % 4 == 0 ? "biq_lnk_b" : Fixture.linkId
                try tx.insertClick(click)
            }
            for n in 0..<5 {
                var open = Fixture.open(id: "biq_open_\(n)", eventId: "e\(n)", at: now - Int64(n) * 1_000)
                if n == 2 { open.linkId = nil }
                try tx.insertOpenEvent(open)
            }
        }
    }

    func testTheConsoleReadsAnswerAsSQLites() throws {
        try applyToBoth(ConsoleStoreTests.seed)
        try applyToBoth(Self.activity(now))
        for prefix in ["spring", "S", "sp", "x", ""] {
            for domain in [nil, Fixture.host] {
                try assertSameAsSQLite("search \(prefix) on \(domain ?? "all")") {
                    try $0.searchLinks(keyPrefix: prefix, domain: domain, after: nil, limit: 20)
                }
                try assertSameAsSQLite("search \(prefix) after spring") {
                    try $0.searchLinks(keyPrefix: prefix, domain: domain, after: ("spring", "biq_lnk_10"), limit: 2)
                }
            }
        }
        try assertSameAsSQLite("recent clicks") { try $0.recentClicks(link: Fixture.linkId, limit: 7) }
        try assertSameAsSQLite("recent opens") { try $0.recentOpenEvents(link: Fixture.linkId, limit: 3) }
        let today = self.today
        try assertSameAsSQLite("activity") {
            try $0.workspaceActivity(fromDay: today - 29, throughDay: today, topLinks: 10)
        }
        XCTAssertEqual(try reader.recentClicks(link: Fixture.linkId, limit: 2).map(\.id), ["biq_clk_3", "biq_clk_6"])
    }

    func testSessionsAsSQLites() throws {
        let key = SecretKeyRecord(id: "sk_1", name: "ops", keyHash: [1], hint: "abcd", createdAt: 0)
        let session = ConsoleSession(
            tokenHash: [7, 7], kind: .signInLink, secretKeyId: "sk_1", createdAt: 10, expiresAt: 20)
        try applyToBoth { tx in
            try tx.putSecretKey(key)
            try tx.putConsoleSession(session)
        }
        try assertSameAsSQLite("session") { try $0.consoleSession(tokenHash: [7, 7]) }
        XCTAssertEqual(try reader.consoleSession(tokenHash: [7, 7]), session)
        XCTAssertEqual(try applyToBoth { tx in try tx.putConsoleSession(session) }, .conflict(.unnamed))
        XCTAssertEqual(try inTransaction { tx in try tx.deleteConsoleSession(tokenHash: [7, 7]) }, session)
        XCTAssertNil(try reader.consoleSession(tokenHash: [7, 7]))
        try inTransaction { tx in
            try tx.putConsoleSession(session)
            var revoked = key
            revoked.revokedAt = 5
            try tx.putSecretKey(revoked)
        }
        XCTAssertNil(try reader.consoleSession(tokenHash: [7, 7]), "a revoked key's sessions read as none")
        XCTAssertEqual(try inTransaction { tx in try tx.prune(olderThan: 0, now: 20) }, 1)
    }

    /// With sequential scans off, the planner must find an index for each: it has one.
    func testEveryConsoleQueryCanUseAnIndex() throws {
        let db = try reader.db
        try db.execute("SET enable_seqscan = off")
        func plan(_ name: String, _ sql: String, _ fill: (inout PGParams) -> Void) throws -> String {
            var p = PGParams()
            fill(&p)
            let rows = try db.run(name, "EXPLAIN " + sql, p)
            return (0..<rows.rowCount).map { rows.text($0, 0) }.joined(separator: "\n")
        }
        let search: (inout PGParams) -> Void = { p in
            p.text("a")
            p.text("")
            p.text("a\u{7F}")
            p.int(51)
        }
        let cases: [(String, String, (inout PGParams) -> Void)] = [
            ("e1", PGQueries.selectLinksByKeyPrefix, search),
            (
                "e2", PGQueries.selectLinksOfDomainByKeyPrefix,
                { p in
                    search(&p)
                    p.text(Fixture.host)
                }
            ),
            (
                "e3", PGQueries.selectLinkRecentClicks,
                { p in
                    p.text(Fixture.linkId)
                    p.int(20)
                }
            ),
            (
                "e4", PGQueries.selectRecentLinkOpens,
                { p in
                    p.text(Fixture.linkId)
                    p.int(20)
                }
            ),
            (
                "e5", PGQueries.selectLinksPageOfDomain,
                { p in
                    p.text("")
                    p.int(51)
                    p.text(Fixture.host)
                }
            ),
            ("e6", PGQueries.selectConsoleSession, { p in p.bytes([1]) }),
            ("e7", PGQueries.selectClicksOfDayByLink, { p in p.int(1) }),
            ("e8", PGQueries.selectOpensOfDay, { p in p.int(1) }),
        ]
        for (name, sql, fill) in cases {
            let text = try plan(name, sql, fill)
            XCTAssertFalse(text.contains("Seq Scan"), sql + "\n" + text)
            XCTAssertTrue(text.contains("Index"), sql + "\n" + text)
        }
        // The pages come in the index's order, not sorted after (but for ties of one
        // millisecond among the newest clicks and opens: an incremental sort).
        for (name, sql, fill) in cases.prefix(5) {
            let text = try plan(name + "s", sql, fill)
            let sorts = text.split(separator: "\n").filter { $0.contains("Sort") && !$0.contains("Sort Key") }
            XCTAssertTrue(sorts.allSatisfy { $0.contains("Incremental Sort") }, sql + "\n" + text)
        }
    }
}
