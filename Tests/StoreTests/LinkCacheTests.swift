import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// Readers answer links, domains and apps from memory, and a change is visible
/// to the next read after the write's completion.
final class LinkCacheTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.externalChangePollMilliseconds = 20
        return options
    }

    private var loopReader: SQLiteReader { store.reader(loop: 0) as! SQLiteReader }

    func testANewLinkIsVisibleAfterItsWriteEvenWhenItsAbsenceWasCached() throws {
        try write { tx in try tx.putDomain(Fixture.domain()) }
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "invite"))
        XCTAssertEqual(loopReader.cachedLinkCount, 1, "the miss is cached")
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "invite"))

        try write { tx in try tx.putLink(Fixture.link(appId: nil)) }
        XCTAssertEqual(try loopReader.link(host: Fixture.host, key: "invite"), Fixture.link(appId: nil))
    }

    func testAChangeIsVisibleToAReadStartedFromTheCompletion() throws {
        try seedCatalog()
        let reader = store.reader(loop: 1)
        XCTAssertEqual(try reader.link(host: Fixture.host, key: "invite")?.url, Fixture.link().url)
        var changed = Fixture.link()
        changed.url = "https://example.com/new"
        let done = Latch()
        let seen = Box<String?>()
        // The completion hands over to "the loop" (this thread) the way the edge does.
        store.write({ [changed] tx in try tx.putLink(changed) }) { _ in done.countDown() }
        XCTAssertTrue(done.wait(for: 1))
        seen.append(try reader.link(host: Fixture.host, key: "invite")?.url)
        XCTAssertEqual(seen.values, ["https://example.com/new"])
    }

    func testEditingAndMovingAndDeletingALinkInvalidatesOldAndNewAddresses() throws {
        try seedCatalog()
        XCTAssertNotNil(try loopReader.link(host: Fixture.host, key: "invite"))
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "renamed"))
        var moved = Fixture.link()
        moved.key = "renamed"
        try write { [moved] tx in try tx.putLink(moved) }
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "invite"))
        XCTAssertEqual(try loopReader.link(host: Fixture.host, key: "renamed"), moved)

        XCTAssertTrue(try write { tx in try tx.deleteLink(id: Fixture.linkId) })
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "renamed"))
    }

    func testEveryReaderSeesTheChange() throws {
        try seedCatalog()
        let readers = (0..<store.readerCount).map { store.reader(loop: $0) }
        for r in readers { XCTAssertNotNil(try r.link(host: Fixture.host, key: "invite")) }
        try write { tx in _ = try tx.deleteLink(id: Fixture.linkId) }
        for r in readers { XCTAssertNil(try r.link(host: Fixture.host, key: "invite")) }
    }

    func testDomainAndAppChangesReachTheReadersSnapshot() throws {
        try seedCatalog()
        XCTAssertEqual(try loopReader.domain(Fixture.host)?.verified, true)
        var domain = Fixture.domain()
        domain.verified = false
        var app = Fixture.app()
        app.name = "Renamed"
        try write { [domain, app] tx in
            try tx.putDomain(domain)
            try tx.putApp(app)
        }
        XCTAssertEqual(try loopReader.domain(Fixture.host), domain)
        XCTAssertEqual(try loopReader.app(Fixture.appId)?.name, "Renamed")
        XCTAssertEqual(try loopReader.apps(attachedTo: Fixture.host).map(\.name), ["Renamed"])

        // Deleting the domain drops its links from every cache too.
        XCTAssertNotNil(try loopReader.link(host: Fixture.host, key: "invite"))
        try write { tx in _ = try tx.deleteDomain(Fixture.host) }
        XCTAssertNil(try loopReader.domain(Fixture.host))
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "invite"))
        XCTAssertEqual(try loopReader.apps(attachedTo: Fixture.host), [])
    }

    func testARolledBackChangeIsNotVisible() throws {
        try seedCatalog()
        XCTAssertNotNil(try loopReader.link(host: Fixture.host, key: "invite"))
        struct Abort: Error {}
        _ = writeError { tx in
            _ = try tx.deleteLink(id: Fixture.linkId)
            try tx.putDomain(Fixture.domain("rolled-back.example.com"))
            throw Abort()
        }
        XCTAssertEqual(try loopReader.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertNil(try loopReader.domain("rolled-back.example.com"))
    }

    func testACommitByAnotherProcessIsNoticed() throws {
        try write { tx in try tx.putDomain(Fixture.domain()) }
        XCTAssertNil(try loopReader.link(host: Fixture.host, key: "cli"))
        XCTAssertNil(try loopReader.domain("cli.example.com"))
        let outside = try outsideConnection(queryOnly: false)
        try outside.exec(
            """
            INSERT INTO domains VALUES ('cli.example.com', 0, 1, NULL, NULL, 1, 1, 0, 0, NULL);
            INSERT INTO links (id, domain, key, url, enabled, has_preview, created_at, updated_at)
            VALUES ('biq_lnk_cli', 'go.example.com', 'cli', 'https://example.com/cli', 1, 0, 1, 1);
            """)
        let deadline = Clock.monotonicNanoseconds() + 5_000_000_000
        while try loopReader.link(host: Fixture.host, key: "cli") == nil, Clock.monotonicNanoseconds() < deadline {
            usleep(5_000)
        }
        XCTAssertEqual(try loopReader.link(host: Fixture.host, key: "cli")?.id, "biq_lnk_cli")
        XCTAssertNotNil(try loopReader.domain("cli.example.com"))
    }

    func testTheLinkCacheIsBoundedAndKeepsRecentlyUsedEntries() {
        var cache = LinkCache(capacity: 2)
        cache.store(host: "h", key: "a", link: nil)
        cache.store(host: "h", key: "b", link: Fixture.link())
        cache.store(host: "h", key: "c", link: nil)  // a, b become the old generation
        XCTAssertTrue(cache.lookup(host: "h", key: "a") != nil)  // promoted
        cache.store(host: "h", key: "d", link: nil)  // young {c, a} full: a and c survive as old
        cache.store(host: "h", key: "e", link: nil)
        XCTAssertLessThanOrEqual(cache.count, 4)
        XCTAssertTrue(cache.lookup(host: "h", key: "b") == nil, "least recently used is gone")
        XCTAssertEqual(cache.lookup(host: "h", key: "d"), .some(nil), "a cached miss is not a miss")
        cache.invalidate(host: "h", key: "d")
        XCTAssertTrue(cache.lookup(host: "h", key: "d") == nil)
    }

    func testAReaderThatFellBehindTheLogClearsEverything() {
        let log = InvalidationLog(catalog: .empty, capacity: 16)
        for i in 0..<40 { log.publish([.link(host: "h", key: "\(i)")], catalog: nil) }
        let behind = log.changes(since: 1)
        XCTAssertTrue(behind.clearAll)
        XCTAssertEqual(behind.sequence, 40)
        let recent = log.changes(since: 38)
        XCTAssertFalse(recent.clearAll)
        XCTAssertEqual(recent.links.map(\.key), ["38", "39"])
        XCTAssertEqual(log.changes(since: 40).links.count, 0)
    }
}
