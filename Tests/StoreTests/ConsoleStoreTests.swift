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

    func testSearchFindsKeysByPrefixInKeyOrderAndPagesFromTheCursor() throws {
        try write(Self.seed)
        let all = try reader.searchLinks(keyPrefix: "spring", domain: nil, after: nil, limit: 10)
        XCTAssertEqual(
            all.map { "\($0.key) \($0.id)" },
            [
                "spring biq_lnk_10", "spring biq_lnk_19", "spring-sale biq_lnk_18", "spring2 biq_lnk_17",
                "spring_b biq_lnk_12",
            ])
        // Case-sensitive, as keys are matched; a prefix of no key finds nothing.
        XCTAssertEqual(
            try reader.searchLinks(keyPrefix: "S", domain: nil, after: nil, limit: 10).map(\.key), ["Spring"])
        XCTAssertEqual(try reader.searchLinks(keyPrefix: "x", domain: nil, after: nil, limit: 10), [])
        // Pages of two, each after the previous page's last (key, id): same key, later id included.
        var seen: [String] = []
        var cursor: (key: String, id: String)?
        while true {
            let page = try reader.searchLinks(keyPrefix: "spring", domain: nil, after: cursor, limit: 2)
            seen += page.map(\.id)
            guard page.count == 2, let last = page.last else { break }
            cursor = (last.key, last.id)
        }
        XCTAssertEqual(seen, all.map(\.id))
        // One domain: the other domain's "spring" is not there.
        XCTAssertEqual(
            try reader.searchLinks(keyPrefix: "spring", domain: Fixture.host, after: nil, limit: 10).map(\.id),
            ["biq_lnk_19", "biq_lnk_18", "biq_lnk_17", "biq_lnk_12"])
        XCTAssertEqual(
            try reader.searchLinks(
                keyPrefix: "spring", domain: Fixture.host, after: ("spring-sale", "biq_lnk_18"), limit: 1
            )
            .map(\.id), ["biq_lnk_17"])
    }

    func testRecentClicksAreTheLinksNewestFirst() throws {
        try write(Self.seed)
        try write { tx in
            for n in 0..<30 {
                var click = Fixture.click(id: "biq_clk_\(n)", at: Self.now - Int64(30 - n) * 1_000)
                if n % 3 == 0 { click.linkId = "biq_lnk_other" }
                try tx.insertClick(click)
            }
        }
        let recent = try reader.recentClicks(link: Fixture.linkId, limit: 5)
        XCTAssertEqual(recent.map(\.id), ["biq_clk_29", "biq_clk_28", "biq_clk_26", "biq_clk_25", "biq_clk_23"])
        XCTAssertEqual(recent.first?.dynamic.first?.1, "BOB")
        XCTAssertEqual(try reader.recentClicks(link: "biq_lnk_none", limit: 5), [])
    }

    func testRecentOpenEventsAreThoseNamingTheLinkNewestFirst() throws {
        try write(Self.seed)
        try write { tx in
            for n in 0..<6 {
                var open = Fixture.open(id: "biq_open_\(n)", eventId: "e\(n)", at: Self.now - Int64(6 - n) * 1_000)
                if n == 4 { open.linkId = nil }
                try tx.insertOpenEvent(open)
            }
        }
        XCTAssertEqual(
            try reader.recentOpenEvents(link: Fixture.linkId, limit: 3).map(\.id),
            ["biq_open_5", "biq_open_3", "biq_open_2"])
    }

    func testWorkspaceActivityCountsEveryLinkByDayAndRanksTheLinks() throws {
        try write(Self.seed)
        try write { tx in
            for n in 0..<12 {
                var click = Fixture.click(id: "biq_clk_\(n)", at: Self.now - Int64(n % 3) * Self.day)
                click.linkId = n < 8 ? "biq_lnk_a" : "biq_lnk_b"
                try tx.insertClick(click)
            }
            // Outside the range: not counted.
            var old = Fixture.click(id: "biq_clk_old", at: Self.now - 40 * Self.day)
            old.linkId = "biq_lnk_c"
            try tx.insertClick(old)
            try tx.insertOpenEvent(Fixture.open(id: "biq_open_1", eventId: "e1", at: Self.now))
        }
        let activity = try reader.workspaceActivity(
            fromDay: Self.today - 29, throughDay: Self.today, topLinks: 10)
        XCTAssertEqual(
            activity.days,
            [
                .init(day: Self.today - 2, clicks: 4, opens: 0), .init(day: Self.today - 1, clicks: 4, opens: 0),
                .init(day: Self.today, clicks: 4, opens: 1, installs: 1),  // a first open with a match
            ])
        XCTAssertEqual(
            activity.topLinks, [.init(linkId: "biq_lnk_a", clicks: 8), .init(linkId: "biq_lnk_b", clicks: 4)])
        XCTAssertEqual(
            try reader.workspaceActivity(fromDay: Self.today, throughDay: Self.today, topLinks: 1).topLinks,
            [.init(linkId: "biq_lnk_a", clicks: 3)])
    }

    func testASessionReadsAsNoneOnceItsKeyIsRevokedAndDeletingReturnsIt() throws {
        let key = SecretKeyRecord(id: "sk_1", name: "ops", keyHash: [1], hint: "abcd", createdAt: 0)
        let session = ConsoleSession(
            tokenHash: [7, 7], kind: .session, secretKeyId: "sk_1", createdAt: 10, expiresAt: 20)
        try write { tx in
            try tx.putSecretKey(key)
            try tx.putConsoleSession(session)
        }
        XCTAssertEqual(try reader.consoleSession(tokenHash: [7, 7]), session)
        XCTAssertNil(try reader.consoleSession(tokenHash: [7, 8]))
        // A second row with the same hash is a broken generator: refused.
        XCTAssertThrowsError(try write { tx in try tx.putConsoleSession(session) })
        var revoked = key
        revoked.revokedAt = 15
        try write { [revoked] tx in try tx.putSecretKey(revoked) }
        XCTAssertNil(try reader.consoleSession(tokenHash: [7, 7]))
        XCTAssertEqual(try write { tx in try tx.deleteConsoleSession(tokenHash: [7, 7]) }, session)
        XCTAssertNil(try write { tx in try tx.deleteConsoleSession(tokenHash: [7, 7]) })
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
