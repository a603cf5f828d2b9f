import Store
import XCTest

@testable import Certificates

/// No failure stops renewals or drops a served certificate (issue 23, item 6): a read of
/// the domains that fails, a store out of reach. The CA is out of reach here too, so an
/// order that starts fails at once; what matters is whether it starts.
final class CertificateManagerFailureTests: XCTestCase {
    var harness: ManagerHarness!

    override func setUpWithError() throws { harness = try ManagerHarness() }
    override func tearDown() { harness?.close() }

    func testAFailedReadOfTheDomainsIsNotNoDomainsTheLastKnownOnesAreStillRenewed() throws {
        let host = "renew.example.test"
        try harness.put(harness.validRow(host, renewalAt: harness.clock.now + 10_000))
        let manager = try harness.manager()
        manager.refresh(force: true)
        var orderer = CertificateOrderer(manager: manager)
        harness.recorder.setDomains(nil)
        orderer.tick()  // never known yet: nothing to go on
        harness.recorder.setDomains([host])
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted"), [], "not due yet")

        // The renewal time comes while the domains cannot be read (loop 0 slow, a read error).
        harness.recorder.setDomains(nil)
        harness.clock.advance(20_000)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted"), ["orderStarted \(host)"])
        let row = try XCTUnwrap(harness.row(host))
        XCTAssertEqual(row.status, .failed, "the CA was out of reach")
        XCTAssertNotNil(row.nextAttemptAt)
        XCTAssertEqual(row.chainPEM, "chain of \(host)", "the certificate stays")
        manager.refresh(force: true)
        XCTAssertEqual(harness.recorder.served.last, [host])
    }

    func testWhileTheStoreIsAwayTheCertificatesStayServedAndTheNextTickTriesAgain() throws {
        let (due, later) = ("due.example.test", "later.example.test")
        try harness.put(harness.validRow(due, renewalAt: harness.clock.now + 10_000))
        try harness.put(harness.validRow(later, renewalAt: harness.clock.now + 3_600_000))
        let manager = try harness.manager()
        manager.refresh(force: true)
        XCTAssertEqual(harness.recorder.served, [[due, later]])
        harness.recorder.setDomains([due, later])
        var orderer = CertificateOrderer(manager: manager)

        harness.store.away.store(true, ordering: .releasing)
        harness.clock.advance(20_000)
        for _ in 0..<3 {
            orderer.tick()
            manager.refresh(force: true)
            manager.refresh(force: false)
            harness.clock.advance(1_000)
        }
        XCTAssertGreaterThan(harness.store.refused.load(ordering: .relaxed), 3)
        XCTAssertEqual(harness.recorder.events("orderStarted"), [], "no claim without the store")
        XCTAssertEqual(harness.recorder.events("storeFailed").count, 1, "reported once")
        XCTAssertEqual(harness.recorder.served, [[due, later]], "nothing handed over again, nothing dropped")
        XCTAssertEqual(manager.state(of: due)?.status, .valid)
        XCTAssertEqual(manager.state(of: later)?.status, .valid)

        harness.store.away.store(false, ordering: .releasing)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted"), ["orderStarted \(due)"], "tried again once back")
        XCTAssertTrue(harness.recorder.served.allSatisfy { $0 == [due, later] }, "\(harness.recorder.served)")
    }

    func testAnOrderOutcomeTheStoreRefusedIsKeptAndWrittenOnceItIsBackItsBackoffHeld() throws {
        let host = "kept.example.test"
        try harness.put(harness.validRow(host, renewalAt: harness.clock.now + 10_000))
        let manager = try harness.manager()
        manager.refresh(force: true)
        harness.recorder.setDomains([host])
        var orderer = CertificateOrderer(manager: manager)
        orderer.tick()  // not due yet (and the hourly clean-up done)
        harness.clock.advance(20_000)
        // The claim is written, then the store goes away: the order fails (no account can
        // be read), and so does the write of its outcome.
        harness.store.goAway(afterWrites: 1)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted"), ["orderStarted \(host)"])
        XCTAssertEqual(harness.recorder.events("orderFailed").count, 1)
        XCTAssertEqual(try harness.row(host)?.status, .valid, "the store never had the outcome")
        let kept = try XCTUnwrap(manager.state(of: host))
        XCTAssertEqual(kept.status, .failed)
        XCTAssertEqual(kept.failures, 1)
        let next = try XCTUnwrap(kept.nextAttemptAt)
        XCTAssertGreaterThan(next, harness.clock.now)
        XCTAssertEqual(harness.recorder.served.last, [host], "the certificate still serves")

        // Back: the outcome is written first, and its backoff holds (no order at once).
        harness.store.away.store(false, ordering: .releasing)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted").count, 1, "the backoff holds")
        let row = try XCTUnwrap(harness.row(host))
        XCTAssertEqual(row.status, .failed)
        XCTAssertEqual(row.failures, 1)
        XCTAssertEqual(row.nextAttemptAt, next)
        XCTAssertNil(row.leaseNode, "the claim given back")
        XCTAssertEqual(row.chainPEM, "chain of \(host)")
        let attempts = try harness.store.base.writeAndWait { tx in try tx.certificateOrders(hostname: host, limit: 5) }
        XCTAssertEqual(attempts.map(\.result), ["failed"])

        harness.clock.advance(next - harness.clock.now + 1)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted").count, 2, "after the backoff")
    }
}
