import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// What association files read of a domain's links: the claims of its app links, and a
/// per-host version that tells a cached document is stale.
final class LinkClaimsTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.externalChangePollMilliseconds = 20
        return options
    }

    private let other = "other.example.com"

    private func link(_ n: Int, key: String, host: String = Fixture.host, app: String? = Fixture.appId) -> Link {
        var link = Fixture.link(id: "biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5F\(n)", host: host, key: key, appId: app)
        link.enabled = n % 2 == 0
        return link
    }

    func testLinkClaimsAreTheDomainsAppLinksOrderedByKey() throws {
        try write { [other] tx in
            try tx.putDomain(Fixture.domain())
            try tx.putDomain(Fixture.domain(other))
            try tx.putApp(Fixture.app())
        }
        let links = [
            link(10, key: "zeta"), link(11, key: "Alpha"), link(12, key: "web", app: nil),
            link(13, key: "beta", host: other), link(14, key: "alpha"),
        ]
        try write { tx in for l in links { try tx.putLink(l) } }
        let expected = [
            LinkClaim(key: "Alpha", appId: Fixture.appId, enabled: false),
            LinkClaim(key: "alpha", appId: Fixture.appId, enabled: true),
            LinkClaim(key: "zeta", appId: Fixture.appId, enabled: true),
        ]
        XCTAssertEqual(try reader.linkClaims(domain: Fixture.host), expected)
        // The transaction's SQL and the protocol's paging fallback agree.
        XCTAssertEqual(try write { tx in try tx.linkClaims(domain: Fixture.host) }, expected)
        XCTAssertEqual(
            links.filter { $0.domain == Fixture.host }.compactMap(\.claim).sorted { $0.key < $1.key }, expected)
    }

    func testLinksVersionMovesOnlyForTheHostWhoseLinksChanged() throws {
        try write { [other] tx in
            try tx.putDomain(Fixture.domain())
            try tx.putDomain(Fixture.domain(other))
            try tx.putApp(Fixture.app())
        }
        let r = store.reader(loop: 0)
        let start = try XCTUnwrap(r.linksVersion(host: Fixture.host))
        let otherStart = r.linksVersion(host: other)

        let first = link(20, key: "one")
        try write { tx in try tx.putLink(first) }
        let created = try XCTUnwrap(r.linksVersion(host: Fixture.host))
        XCTAssertNotEqual(created, start)
        XCTAssertEqual(r.linksVersion(host: other), otherStart, "another domain's documents stay cached")
        XCTAssertEqual(r.linksVersion(host: Fixture.host), created, "stable while nothing changes")

        var edited = link(20, key: "two")
        edited.enabled = false
        try write { [edited] tx in try tx.putLink(edited) }
        let changed = try XCTUnwrap(r.linksVersion(host: Fixture.host))
        XCTAssertNotEqual(changed, created)

        var moved = edited
        moved.domain = other
        try write { [moved] tx in try tx.putLink(moved) }
        XCTAssertNotEqual(r.linksVersion(host: Fixture.host), changed, "moved away")
        XCTAssertNotEqual(r.linksVersion(host: other), otherStart, "moved in")

        let beforeDelete = r.linksVersion(host: other)
        XCTAssertTrue(try write { [edited] tx in try tx.deleteLink(id: edited.id) })
        XCTAssertNotEqual(r.linksVersion(host: other), beforeDelete)
    }

    func testACommitByAnotherProcessMovesEveryHostsLinksVersion() throws {
        try write { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
        }
        let r = store.reader(loop: 1)
        let before = r.linksVersion(host: Fixture.host)
        let outside = try outsideConnection(queryOnly: false)
        try outside.exec(
            """
            INSERT INTO links (id, domain, key, url, enabled, app_id, route, has_preview, created_at, updated_at)
            VALUES ('biq_lnk_outside', 'go.example.com', 'outside', 'https://e.com/', 1, '\(Fixture.appId)', '/', 0, 1, 1);
            """)
        // Another process's commit is noticed on the writer's next poll.
        let deadline = Clock.monotonicNanoseconds() + 5_000_000_000
        while r.linksVersion(host: Fixture.host) == before, Clock.monotonicNanoseconds() < deadline { usleep(5_000) }
        XCTAssertNotEqual(r.linksVersion(host: Fixture.host), before)
        XCTAssertEqual(try r.linkClaims(domain: Fixture.host).map(\.key), ["outside"])
    }
}
