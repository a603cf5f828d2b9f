import Model
import XCTest

@testable import Store

/// The links any loop read, kept for the reads that fail while the database is away: kept
/// only while no change of the link was published since the read began.
final class LastKnownLinksTests: XCTestCase {
    private let log = InvalidationLog(catalog: CatalogSnapshot(domains: [], apps: []))
    private lazy var known = LastKnownLinks(log: log, capacity: 16)

    func testALinkOneReaderReadIsKnownToAll() {
        XCTAssertNil(known.link(host: Fixture.host, key: "invite"))
        known.remember(
            host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: log.sequence.load(ordering: .acquiring))
        XCTAssertEqual(known.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertNil(known.link(host: Fixture.host, key: "other"))
    }

    func testAChangedLinkIsForgottenWhenTheChangeIsPublished() {
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 0)
        log.publish([.link(host: Fixture.host, key: "invite")], catalog: nil)
        XCTAssertNil(known.link(host: Fixture.host, key: "invite"))
    }

    func testEverythingIsForgottenWhenEveryCacheIsDropped() {
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 0)
        log.publish([.all], catalog: nil)
        XCTAssertNil(known.link(host: Fixture.host, key: "invite"))
    }

    func testAReadThatAChangeOvertookIsNotKept() {
        // The read began at sequence 0; the link changed (published) before its answer came.
        log.publish([.link(host: Fixture.host, key: "invite")], catalog: nil)
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 0)
        XCTAssertNil(known.link(host: Fixture.host, key: "invite"))
        // Another loop had applied that change before its read: its answer is kept.
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 1)
        XCTAssertEqual(known.link(host: Fixture.host, key: "invite"), Fixture.link())
    }

    func testAReadOvertakenByAnotherLinksChangeIsKept() {
        known.remember(host: Fixture.host, key: "promo", link: Fixture.link(key: "promo"), readAfter: 0)
        XCTAssertEqual(known.link(host: Fixture.host, key: "promo"), Fixture.link(key: "promo"))  // caught up to 0
        log.publish([.link(host: Fixture.host, key: "other")], catalog: nil)
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 0)
        XCTAssertEqual(known.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertEqual(known.link(host: Fixture.host, key: "promo"), Fixture.link(key: "promo"))
    }

    func testAReadOvertakenByADroppedCacheIsNotKept() {
        log.publish([.all], catalog: nil)
        known.remember(host: Fixture.host, key: "invite", link: Fixture.link(), readAfter: 0)
        XCTAssertNil(known.link(host: Fixture.host, key: "invite"))
    }

    func testItHoldsAtMostTwiceItsCapacity() {
        for n in 0..<100 {
            known.remember(host: Fixture.host, key: "k\(n)", link: Fixture.link(key: "k\(n)"), readAfter: 0)
        }
        XCTAssertLessThanOrEqual(known.count, 32)
        XCTAssertEqual(known.link(host: Fixture.host, key: "k99"), Fixture.link(key: "k99"))
    }
}
