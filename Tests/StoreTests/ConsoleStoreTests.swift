import Core
import Model
import XCTest

@testable import Store

/// What the operator console reads and writes, on SQLite: key-prefix search in key order
/// from a cursor, a link's newest clicks and open events, the workspace's daily activity
/// and top links, sessions (a revoked key's sessions read as none, the one-time link is
/// taken by deleting it, retention deletes the expired); and every query through an index.
final class ConsoleStoreTests: StoreTestCase {
    static let day: Int64 = 86_400_000
    static let now: Int64 = 1_700_000_000_000
    static let today = now / day

    /// Ten links on two domains, keys that share prefixes, ids not in key order.
    static func links() -> [Link] {
        let keys = ["spring", "spring-sale", "spring2", "summer", "Spring", "sp", "a", "spring_b", "spa", "spring"]
        return keys.enumerated().map { n, key in
            Link(
                id: "biq_lnk_\(String(format: "%02d", 19 - n))", domain: n == 9 ? "other.example.com" : Fixture.host,
                key: key, url: "https://example.com/\(n)", createdAt: Int64(n), updatedAt: Int64(n))
        }
    }

    static func seed(_ tx: any StoreTransaction) throws {
        try tx.putDomain(Fixture.domain())
        try tx.putDomain(Fixture.domain("other.example.com"))
        try tx.putApp(Fixture.app())
        for link in links() { try tx.putLink(link) }
    }

    func testRetentionDeletesExpiredSessionsAndLinksOnly() throws {
        try write { tx in
            try tx.putSecretKey(SecretKeyRecord(id: "sk_1", name: "ops", keyHash: [1], hint: "abcd", createdAt: 0))
            for (n, expiry) in [100, 200, 300].enumerated() {
                try tx.putConsoleSession(
                    ConsoleSession(
                        tokenHash: [UInt8(n)], kind: n == 1 ? .signInLink : .session, secretKeyId: "sk_1",
                        createdAt: 0, expiresAt: Int64(expiry)))
            }
        }
        XCTAssertEqual(try store.prune(olderThan: 0, now: 200), 2)
        XCTAssertNil(try reader.consoleSession(tokenHash: [1]))
        XCTAssertNotNil(try reader.consoleSession(tokenHash: [2]))
    }

    /// Every console query reads through an index: no table scan, and no sort where the
    /// page's order could come from the index.
    func testEveryConsoleQueryUsesAnIndex() throws {
        let db = try outsideConnection()
        func plan(_ sql: String) throws -> String {
            try db.queryAll("EXPLAIN QUERY PLAN " + sql) { $0.text(3) }.joined(separator: "\n")
        }
        let sorted = [
            SQLiteQueries.selectLinksByKeyPrefix, SQLiteQueries.selectLinksOfDomainByKeyPrefix,
            SQLiteQueries.selectLinkRecentClicks, SQLiteQueries.selectRecentLinkOpens, SQLiteQueries.selectLinksPage,
            SQLiteQueries.selectLinksPageOfDomain, SQLiteQueries.selectConsoleSession,
            SQLiteQueries.selectClicksOfDayByLink, SQLiteQueries.selectOpensOfDay,
        ]
        for sql in sorted {
            let text = try plan(sql)
            XCTAssertTrue(text.contains("USING"), sql + "\n" + text)
            XCTAssertFalse(text.contains("SCAN"), sql + "\n" + text)
            XCTAssertFalse(text.contains("TEMP B-TREE"), sql + "\n" + text)
        }
        XCTAssertTrue(try plan(SQLiteQueries.selectClicksOfDayByLink).contains("link_click_counts_day"))
        XCTAssertTrue(
            try plan(SQLiteTransaction.deleteExpiredConsoleSessionsSQL).contains("console_sessions_expires"))
    }
}
