import Store
import XCTest

@testable import Certificates

/// Two nodes of a fleet: one finds an order due from rows it read before the other node
/// renewed the certificate and gave its claim back. The claim it then wins must not start
/// a second order (seen on PostgreSQL: both nodes logged "certificate order started").
final class StaleViewClaimTests: XCTestCase {
    var harness: ManagerHarness!

    override func setUpWithError() throws { harness = try ManagerHarness() }
    override func tearDown() { harness?.close() }

    func testAClaimOnAStaleViewIsGivenBackWithoutAnOrder() throws {
        let host = "stale.example.test"
        try harness.put(harness.validRow(host, renewalAt: harness.clock.now + 10_000))
        let stale = try harness.manager(node: "node-b")
        stale.refresh(force: true)  // node b reads the row: renewal due in 10 s
        harness.recorder.setDomains([host])
        var orderer = CertificateOrderer(manager: stale)
        orderer.tick()  // not due yet (the hourly clean-up done)

        // Node a renews meanwhile (a new certificate, the next renewal far away) and gives
        // its claim back; node b has not read the row again when its renewal time comes.
        var renewed = harness.validRow(host, renewalAt: harness.clock.now + 3_600_000)
        renewed.notAfter = harness.clock.now + 2 * 86_400_000
        try harness.put(renewed)
        harness.clock.advance(20_000)
        XCTAssertTrue(orderer.attempt(host))
        XCTAssertEqual(harness.recorder.events("orderStarted"), [], "no second order")
        let row = try XCTUnwrap(harness.row(host))
        XCTAssertNil(row.leaseNode, "the claim was given back")
        XCTAssertEqual(row.notAfter, renewed.notAfter)

        // Once it has read the row, node b finds nothing due.
        stale.refresh(force: true)
        orderer.tick()
        XCTAssertEqual(harness.recorder.events("orderStarted"), [])
    }

    func testARowThatIsWhatTheNodeSawIsOrdered() throws {
        let host = "due.example.test"
        try harness.put(harness.validRow(host, renewalAt: harness.clock.now + 10_000))
        let manager = try harness.manager()
        manager.refresh(force: true)
        var orderer = CertificateOrderer(manager: manager)
        harness.clock.advance(20_000)
        XCTAssertTrue(orderer.attempt(host))
        XCTAssertEqual(harness.recorder.events("orderStarted"), ["orderStarted \(host)"])
    }
}
