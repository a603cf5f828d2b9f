import Core
import Model
import XCTest

@testable import Store

/// What every backend must do for the operator console (`ConsoleReading`,
/// `ConsoleWriting`): key-prefix search in key order from a cursor, a link's newest clicks
/// and open events, the workspace's daily activity and top links, sessions (a revoked
/// key's sessions read as none, the one-time link is taken by deleting it).
enum ConsoleContract {
    static let suite: [ContractCase] = [
        (
            "search finds keys by prefix in key order and pages from the cursor",
            searchFindsKeysByPrefixInKeyOrderAndPagesFromTheCursor
        ),
        ("recent clicks are the link's newest first", recentClicksAreTheLinksNewestFirst),
        (
            "recent open events are those naming the link, newest first",
            recentOpenEventsAreThoseNamingTheLinkNewestFirst
        ),
        (
            "workspace activity counts every link by day and ranks the links",
            workspaceActivityCountsEveryLinkByDayAndRanksTheLinks
        ),
        (
            "a session reads as none once its key is revoked; deleting returns it",
            aSessionReadsAsNoneOnceItsKeyIsRevokedAndDeletingReturnsIt
        ),
    ]

    static func searchFindsKeysByPrefixInKeyOrderAndPagesFromTheCursor(_ b: any ContractBackend) throws {
        try b.write(ConsoleStoreTests.seed)
        let all = try b.committed.searchLinks(keyPrefix: "spring", domain: nil, after: nil, limit: 10)
        XCTAssertEqual(
            all.map { "\($0.key) \($0.id)" },
            [
                "spring biq_lnk_10", "spring biq_lnk_19", "spring-sale biq_lnk_18", "spring2 biq_lnk_17",
                "spring_b biq_lnk_12",
            ])
        // Case-sensitive, as keys are matched; a prefix of no key finds nothing.
        XCTAssertEqual(
            try b.committed.searchLinks(keyPrefix: "S", domain: nil, after: nil, limit: 10).map(\.key), ["Spring"])
        XCTAssertEqual(try b.committed.searchLinks(keyPrefix: "x", domain: nil, after: nil, limit: 10), [])
        // Pages of two, each after the previous page's last (key, id): same key, later id included.
        var seen: [String] = []
        var cursor: (key: String, id: String)?
        while true {
            let page = try b.committed.searchLinks(keyPrefix: "spring", domain: nil, after: cursor, limit: 2)
            seen += page.map(\.id)
            guard page.count == 2, let last = page.last else { break }
            cursor = (last.key, last.id)
        }
        XCTAssertEqual(seen, all.map(\.id))
        // One domain: the other domain's "spring" is not there.
        XCTAssertEqual(
            try b.committed.searchLinks(keyPrefix: "spring", domain: Fixture.host, after: nil, limit: 10).map(\.id),
            ["biq_lnk_19", "biq_lnk_18", "biq_lnk_17", "biq_lnk_12"])
        XCTAssertEqual(
            try b.committed.searchLinks(
                keyPrefix: "spring", domain: Fixture.host, after: ("spring-sale", "biq_lnk_18"), limit: 1
            )
            .map(\.id), ["biq_lnk_17"])
    }

    static func recentClicksAreTheLinksNewestFirst(_ b: any ContractBackend) throws {
        try b.write(ConsoleStoreTests.seed)
        try b.write { tx in
            for n in 0..<30 {
                var click = Fixture.click(id: "biq_clk_\(n)", at: ConsoleStoreTests.now - Int64(30 - n) * 1_000)
                if n % 3 == 0 { click.linkId = "biq_lnk_other" }
                try tx.insertClick(click)
            }
        }
        let recent = try b.committed.recentClicks(link: Fixture.linkId, limit: 5)
        XCTAssertEqual(recent.map(\.id), ["biq_clk_29", "biq_clk_28", "biq_clk_26", "biq_clk_25", "biq_clk_23"])
        XCTAssertEqual(recent.first?.dynamic.first?.1, "BOB")
        XCTAssertEqual(try b.committed.recentClicks(link: "biq_lnk_none", limit: 5), [])
    }

    static func recentOpenEventsAreThoseNamingTheLinkNewestFirst(_ b: any ContractBackend) throws {
        try b.write(ConsoleStoreTests.seed)
        try b.write { tx in
            for n in 0..<6 {
                var open = Fixture.open(
                    id: "biq_open_\(n)", eventId: "e\(n)", at: ConsoleStoreTests.now - Int64(6 - n) * 1_000)
                if n == 4 { open.linkId = nil }
                try tx.insertOpenEvent(open)
            }
        }
        XCTAssertEqual(
            try b.committed.recentOpenEvents(link: Fixture.linkId, limit: 3).map(\.id),
            ["biq_open_5", "biq_open_3", "biq_open_2"])
    }

    static func workspaceActivityCountsEveryLinkByDayAndRanksTheLinks(_ b: any ContractBackend) throws {
        try b.write(ConsoleStoreTests.seed)
        try b.write { tx in
            for n in 0..<12 {
                var click = Fixture.click(
                    id: "biq_clk_\(n)", at: ConsoleStoreTests.now - Int64(n % 3) * ConsoleStoreTests.day)
                click.linkId = n < 8 ? "biq_lnk_a" : "biq_lnk_b"
                try tx.insertClick(click)
            }
            // Outside the range: not counted.
            var old = Fixture.click(id: "biq_clk_old", at: ConsoleStoreTests.now - 40 * ConsoleStoreTests.day)
            old.linkId = "biq_lnk_c"
            try tx.insertClick(old)
            try tx.insertOpenEvent(Fixture.open(id: "biq_open_1", eventId: "e1", at: ConsoleStoreTests.now))
        }
        let activity = try b.committed.workspaceActivity(
            fromDay: ConsoleStoreTests.today - 29, throughDay: ConsoleStoreTests.today, topLinks: 10)
        XCTAssertEqual(
            activity.days,
            [
                .init(day: ConsoleStoreTests.today - 2, clicks: 4, opens: 0),
                .init(day: ConsoleStoreTests.today - 1, clicks: 4, opens: 0),
                .init(day: ConsoleStoreTests.today, clicks: 4, opens: 1, installs: 1),  // a first open with a match
            ])
        XCTAssertEqual(
            activity.topLinks, [.init(linkId: "biq_lnk_a", clicks: 8), .init(linkId: "biq_lnk_b", clicks: 4)])
        XCTAssertEqual(
            try b.committed.workspaceActivity(
                fromDay: ConsoleStoreTests.today, throughDay: ConsoleStoreTests.today, topLinks: 1
            ).topLinks,
            [.init(linkId: "biq_lnk_a", clicks: 3)])
    }

    static func aSessionReadsAsNoneOnceItsKeyIsRevokedAndDeletingReturnsIt(_ b: any ContractBackend) throws {
        let key = SecretKeyRecord(id: "sk_1", name: "ops", keyHash: [1], hint: "abcd", createdAt: 0)
        let session = ConsoleSession(
            tokenHash: [7, 7], kind: .session, secretKeyId: "sk_1", createdAt: 10, expiresAt: 20)
        try b.write { tx in
            try tx.putSecretKey(key)
            try tx.putConsoleSession(session)
        }
        XCTAssertEqual(try b.committed.consoleSession(tokenHash: [7, 7]), session)
        XCTAssertNil(try b.committed.consoleSession(tokenHash: [7, 8]))
        // A second row with the same hash is a broken generator: refused.
        XCTAssertThrowsError(try b.write { tx in try tx.putConsoleSession(session) })
        var revoked = key
        revoked.revokedAt = 15
        try b.write { [revoked] tx in try tx.putSecretKey(revoked) }
        XCTAssertNil(try b.committed.consoleSession(tokenHash: [7, 7]))
        XCTAssertEqual(try b.write { tx in try tx.deleteConsoleSession(tokenHash: [7, 7]) }, session)
        XCTAssertNil(try b.write { tx in try tx.deleteConsoleSession(tokenHash: [7, 7]) })
    }
}
