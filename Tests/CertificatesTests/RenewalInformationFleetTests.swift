import Core
import Store
import Synchronization
import XCTest

@testable import Certificates

/// The CA's renewal information (RFC 9773) is asked once per certificate for a fleet, not
/// once per node; never again and again while the store is away; and an answer the store
/// refused is kept, not asked for again (issue 23, item 6). A CA of the test's own
/// answers over HTTPS.
final class RenewalInformationFleetTests: XCTestCase {
    var harness: ManagerHarness!
    var ca: FakeCA!
    let host = "ari.example.test"
    /// Each answer's window: a week from the test's start, a day long.
    var windowStart: Int64 = 0
    /// Runs when the CA answers, in the CA's thread.
    final class Hook: Sendable {
        let action = Mutex<(@Sendable () -> Void)?>(nil)
    }
    let onAnswer = Hook()

    override func setUpWithError() throws {
        harness = try ManagerHarness()
        let start = harness.clock.now + 7 * 86_400_000
        windowStart = start
        ca = try FakeCA(directory: harness.directory) { [onAnswer] path in
            guard path.hasPrefix("/renewal-info/") else { return nil }
            onAnswer.action.withLock { $0 }?()
            let window =
                #"{"suggestedWindow":{"start":"\#(Timestamp.format(milliseconds: start))","#
                + #""end":"\#(Timestamp.format(milliseconds: start + 86_400_000))"}}"#
            return (200, [("Content-Type", "application/json"), ("Retry-After", "3600")], window)
        }
        let (chain, key, info) = try harness.issuedChain(host)
        try harness.put(
            StoredCertificate(
                hostname: host, status: .valid, chainPEM: chain, keyPEM: key, notBefore: info.notBefore,
                notAfter: info.notAfter, issuer: info.issuer, renewalAt: info.notAfter - 3_600_000,
                updatedAt: harness.clock.now))
        harness.recorder.setDomains([host])
    }

    override func tearDown() {
        ca?.stop()
        harness?.close()
    }

    private func node(_ name: String, recorder: HookRecorder? = nil) throws -> (CertificateManager, CertificateOrderer)
    {
        let manager = try harness.manager(
            node: name, directoryURL: ca.directoryURL, rootsFile: ca.certificateFile, recorder: recorder)
        manager.refresh(force: true)
        return (manager, CertificateOrderer(manager: manager))
    }

    private var asked: Int { ca.count(prefix: "/renewal-info/") }

    func testTwoNodesOfAFleetAskTheCAOncePerCertificate() throws {
        let other = HookRecorder()
        other.setDomains([host])
        var (_, a) = try node("node-a")
        // Node b read the rows before node a asked: it still sees the check due.
        var (_, b) = try node("node-b", recorder: other)
        a.tick()
        b.tick()
        a.tick()
        b.tick()
        XCTAssertEqual(asked, 1, "\(ca.asked)")
        let row = try XCTUnwrap(harness.row(host))
        XCTAssertEqual(row.renewalInfoCheckAt, harness.clock.now + 3_600_000, "the CA's Retry-After, for every node")
        let renewalAt = try XCTUnwrap(row.renewalAt)
        XCTAssertTrue((windowStart..<windowStart + 86_400_000).contains(renewalAt), "a time in the CA's window")
        XCTAssertNil(row.leaseNode)

        // Its Retry-After passed: asked again, once.
        harness.clock.advance(3_600_001)
        b.tick()
        a.tick()
        XCTAssertEqual(asked, 2, "\(ca.asked)")
        XCTAssertEqual(
            harness.recorder.events("renewalInformation").count + other.events("renewalInformation").count, 2)
    }

    func testWhileTheStoreIsAwayTheCAIsNotAskedAgainAndAgain() throws {
        var (_, a) = try node("node-a")
        harness.store.away.store(true, ordering: .releasing)
        for _ in 0..<3 {
            a.tick()
            harness.clock.advance(1_000)
        }
        XCTAssertEqual(asked, 0, "no turn taken without the store: \(ca.asked)")
        harness.store.away.store(false, ordering: .releasing)
        a.tick()
        a.tick()
        XCTAssertEqual(asked, 1)
    }

    func testAnAnswerTheStoreRefusedIsKeptAndWrittenWithoutAskingAgain() throws {
        var (manager, a) = try node("node-a")
        let store = harness.store
        // The store goes away while the CA answers.
        onAnswer.action.withLock { $0 = { store.away.store(true, ordering: .releasing) } }
        a.tick()
        onAnswer.action.withLock { $0 = nil }
        XCTAssertEqual(asked, 1)
        let told = try XCTUnwrap(manager.state(of: host)?.renewalAt, "the answer is used at once")
        XCTAssertTrue((windowStart..<windowStart + 86_400_000).contains(told))
        for _ in 0..<3 {
            a.tick()
            harness.clock.advance(1_000)
        }
        XCTAssertEqual(asked, 1, "kept, not asked again: \(ca.asked)")

        store.away.store(false, ordering: .releasing)
        a.tick()
        XCTAssertEqual(asked, 1)
        let row = try XCTUnwrap(harness.row(host))
        XCTAssertEqual(row.renewalAt, told)
        XCTAssertEqual(row.renewalInfoCheckAt, harness.clock.now - 3_000 + 3_600_000)
        XCTAssertEqual(manager.state(of: host)?.renewalAt, told)
    }
}
