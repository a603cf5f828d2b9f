import Store
import XCTest

@testable import Certificates

/// Writes the store refused are laid over every read of the rows until written, and
/// never undo what the store learnt since.
final class UnsavedWritesTests: XCTestCase {
    var harness: ManagerHarness!

    override func setUpWithError() throws { harness = try ManagerHarness() }
    override func tearDown() { harness?.close() }

    private func issued(_ host: String, finished: Int64) throws -> (OrderOutcome, String) {
        let (chain, key, info) = try harness.issuedChain(host)
        let outcome = OrderOutcome(
            hostname: host, node: "node-a", started: finished - 1_000, finished: finished,
            issued: IssuedCertificate(chainPEM: chain, keyPEM: key, info: info), failure: nil,
            renewalAt: info.notAfter - 3_600_000)
        return (outcome, chain)
    }

    func testAnIssuedCertificateTheStoreRefusedIsServedOverEveryReadUntilWritten() throws {
        let host = "issued.example.test"
        let now = harness.clock.now
        var stored = harness.validRow(host, renewalAt: now - 1_000)
        stored.notAfter = now + 60_000
        stored.leaseNode = "node-a"
        stored.leaseUntil = now + 600_000
        var state = SharedCertificateState()
        state.replaceRows([stored])
        let before = state.servableVersions(at: now)
        let (outcome, chain) = try issued(host, finished: now)
        state.keepUnsaved(outcome)
        let after = state.servableVersions(at: now)
        XCTAssertNotEqual(after[host], before[host], "the server is told the certificate changed")
        XCTAssertTrue(String(decoding: state.served(after)[0].pem, as: UTF8.self).hasPrefix(chain))

        state.replaceRows([stored])  // a read while the store still lacks it
        XCTAssertEqual(state.rows[host]?.chainPEM, chain)
        XCTAssertEqual(state.rows[host]?.status, .valid)
        XCTAssertNil(state.rows[host]?.leaseNode, "the claim is given back with it")
        XCTAssertEqual(state.servableVersions(at: now), after)
    }

    func testAnUnsavedOutcomeNeverUndoesWhatTheStoreLearntSince() throws {
        let host = "newer.example.test"
        let now = harness.clock.now
        let (outcome, chain) = try issued(host, finished: now)
        var state = SharedCertificateState()
        state.keepUnsaved(outcome)
        // Another node recorded an outcome after this one (this node's claim had lapsed).
        var later = harness.validRow(host, renewalAt: now + 86_400_000)
        later.updatedAt = now + 5_000
        state.replaceRows([later])
        XCTAssertEqual(state.rows[host]?.chainPEM, "chain of \(host)")
        // A certificate that ends later is never replaced by this one.
        var longer = harness.validRow(host, renewalAt: now + 86_400_000)
        longer.updatedAt = now - 5_000
        longer.notAfter = try XCTUnwrap(outcome.issued?.info.notAfter) + 1_000
        state.replaceRows([longer])
        XCTAssertEqual(state.rows[host]?.chainPEM, "chain of \(host)")
        // An older row without news: the unsaved certificate.
        var older = harness.validRow(host, renewalAt: now)
        older.updatedAt = now - 5_000
        state.replaceRows([older])
        XCTAssertEqual(state.rows[host]?.chainPEM, chain)
    }

    func testRenewalInformationForACertificateSinceReplacedIsDropped() {
        let host = "ari.example.test"
        let now = harness.clock.now
        var state = SharedCertificateState()
        state.replaceRows([harness.validRow(host, renewalAt: now + 86_400_000)])
        state.keepUnsaved(
            RenewalInformationResult(
                hostname: host, chainPEM: "chain of \(host)", renewalAt: now + 1_000, checkAt: now + 3_600_000))
        XCTAssertEqual(state.rows[host]?.renewalAt, now + 1_000)
        var renewed = harness.validRow(host, renewalAt: now + 2 * 86_400_000)
        renewed.chainPEM = "a newer chain"
        state.replaceRows([renewed])
        XCTAssertEqual(state.rows[host]?.renewalAt, now + 2 * 86_400_000)
        XCTAssertNil(state.rows[host]?.renewalInfoCheckAt)
    }
}
