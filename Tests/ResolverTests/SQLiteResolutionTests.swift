import Core
import Foundation
import HTTPMessages
import Model
import Store
import XCTest

@testable import Resolver

#if canImport(Glibc)
import Glibc
#endif

/// The resolver over the real SQLite store (the other resolver tests use the
/// in-memory one): idempotency with the SDKs' key (= eventId, stored without a
/// hash) and with other keys, and the handoff claim judged on the writer while
/// its snapshot comes from the loop's reader (decision 0008).
final class SQLiteResolutionTests: XCTestCase {
    let now: Int64 = 1_790_000_000_000
    let appId = "biq_mapp_" + ULID.make(milliseconds: 1_700_000_000_000)
    let linkId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_010)
    let otherLinkId = "biq_lnk_" + ULID.make(milliseconds: 1_700_000_000_011)
    let key = World.makeKey()
    var directory = ""
    var store: SQLiteStore!
    var resolver: Resolver!

    override func setUpWithError() throws {
        var template = Array("/tmp/resolvertests-XXXXXX".utf8CString)
        XCTAssertNotNil(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var options = SQLiteStore.Options()
        let t = now
        options.clock = { t }
        store = try SQLiteStore.open(dataDirectory: directory, readers: 2, options: options)
        let (appId, linkId, otherLinkId, key) = (appId, linkId, otherLinkId, key)
        try store.writeAndWait { tx in
            try tx.putDomain(Domain(hostname: "go.example.test", verified: true))
            try tx.putApp(
                MobileApp(
                    id: appId, name: "Demo", ios: IOSPlatform(teamId: "ABCDE12345", bundleId: "com.example.demo"),
                    android: AndroidPlatform(packageName: "com.example.demo"), domains: ["go.example.test"]))
            for (id, k) in [(linkId, "invite"), (otherLinkId, "promo")] {
                try tx.putLink(
                    Link(
                        id: id, domain: "go.example.test", key: k, url: "https://example.test/" + k,
                        mobile: MobilePayload(appId: appId, route: "/" + k, metadata: ["campaign": "current"])))
            }
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk1", appId: appId, keyHash: SHA256.hash(key), hint: String(key.suffix(4)), createdAt: 0))
        }
        let keyring = try ReceiptKeyring(store: store, now: now)
        resolver = Resolver(
            store: store, keyring: keyring,
            sourceAddressHasher: SourceAddressHasher(key: SourceAddressHasher.generateKey()),
            configuration: Resolver.Configuration(publicURL: "https://edge.example.test", limits: .unlimited),
            httpsActive: { _ in true })
    }

    override func tearDown() {
        store?.close()
        for suffix in ["", "-wal", "-shm"] { unlink(directory + "/" + SQLiteStore.fileName + suffix) }
        rmdir(directory)
    }

    private func resolve(_ r: SDKRequest, at time: Int64? = nil) -> Answer {
        let done = DispatchSemaphore(value: 0)
        let box = Locked<HTTPResponse?>(nil)
        resolver.resolve(r.input(now: time ?? now)) { output in
            box.value = output
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        return Answer(box.value!)
    }

    private func android() -> SDKRequest { SDKRequest.android(app: appId, key: key) }

    private func addHandoff() throws -> String {
        let token = HandoffToken.generate(milliseconds: UInt64(now - 1_000))
        let (appId, linkId, now) = (appId, linkId, now)
        try store.writeAndWait { tx in
            try tx.insertHandoff(
                Handoff(
                    tokenHash: HandoffToken.hash(token), clickId: "biq_clk_" + ULID.make(), appId: appId,
                    platform: .android,
                    snapshot: HandoffSnapshot(
                        linkId: linkId, shortUrl: "https://go.example.test/invite", route: "/invite/snapshot",
                        referralCode: "R1", metadata: ["campaign": "snapshot", "n": 2], dynamic: [("ref", "BOB")]),
                    createdAt: now - 1_000, expiresAt: now + 60_000))
        }
        return token
    }

    func testSDKKeyReplaysAndConflictsInEveryForm() {
        let first = android()
        let a = resolve(first)
        a.assertMatch("none")
        let replay = resolve(first)
        replay.assertMatch("none")
        XCTAssertEqual(replay.openId, a.openId)

        var changed = first
        changed.appVersion = "9.9.9"
        resolve(changed).assertError(409, "idempotency_conflict")
        // Another event reusing the first event's id as its key.
        var reusedKey = android()
        reusedKey.idempotencyKey = first.eventId
        resolve(reusedKey).assertError(409, "idempotency_conflict")
        // The first event with a regenerated key.
        var regenerated = first
        regenerated.idempotencyKey = "key_" + SDKRequest.hex(20, upper: false)
        resolve(regenerated).assertError(409, "idempotency_conflict")

        // A key that is not the eventId: stored as a hash, and still unique.
        var keyed = android()
        keyed.idempotencyKey = "key_" + SDKRequest.hex(20, upper: false)
        let k = resolve(keyed)
        k.assertMatch("none")
        XCTAssertEqual(resolve(keyed).openId, k.openId)
        var namedLikeTheKey = android()
        namedLikeTheKey.eventId = keyed.idempotencyKey
        namedLikeTheKey.idempotencyKey = keyed.idempotencyKey
        resolve(namedLikeTheKey).assertError(409, "idempotency_conflict")
        var sameKeyOtherEvent = android()
        sameKeyOtherEvent.idempotencyKey = keyed.idempotencyKey
        resolve(sameKeyOtherEvent).assertError(409, "idempotency_conflict")
        XCTAssertEqual(try store.reader(loop: 0).analytics(app: appId, since: 0, recent: 0).opens.first?.count, 2)
    }

    func testHandoffIsClaimedOnceReplayedForItsInstanceAndRefusedToOthers() throws {
        let token = try addHandoff()
        var claim = android()
        claim.handoffToken = token
        let a = resolve(claim)
        a.assertMatch("exact_install_referrer")
        XCTAssertEqual(a.route, "/invite/snapshot")
        XCTAssertEqual(a.json["attribution"]?["metadata"], ["campaign": "snapshot", "n": 2])
        XCTAssertNotNil(a.receipt)

        var later = android()
        later.appInstanceId = claim.appInstanceId
        later.handoffToken = token
        later.firstOpen = false
        let again = resolve(later)
        again.assertMatch("exact_install_referrer")
        XCTAssertEqual(again.openId, a.openId)
        XCTAssertNil(again.receipt)

        var thief = android()
        thief.handoffToken = token
        resolve(thief).assertError(404, "resource_not_found")
        // A deep link naming another link: refused to the thief as unavailable, to the owner as a mismatch.
        thief.deepLink = "https://go.example.test/promo"
        thief.eventId = "open_" + SDKRequest.hex(32, upper: false)
        thief.idempotencyKey = thief.eventId
        resolve(thief).assertError(404, "resource_not_found")
        var mismatch = later
        mismatch.eventId = "open_" + SDKRequest.hex(32, upper: false)
        mismatch.idempotencyKey = mismatch.eventId
        mismatch.deepLink = "https://go.example.test/promo"
        resolve(mismatch).assertError(422, "handoff_mismatch")

        let unclaimed = try addHandoff()
        var mismatchFirst = android()
        mismatchFirst.handoffToken = unclaimed
        mismatchFirst.deepLink = "https://go.example.test/promo"
        resolve(mismatchFirst).assertError(422, "handoff_mismatch")
        XCTAssertNil(try store.reader(loop: 0).handoff(tokenHash: HandoffToken.hash(unclaimed))?.claimedByInstance)
    }

    /// Issue 14, through SQLite: the receipt is written with the event, in either
    /// form of the Idempotency-Key, and a replay returns it until its `exp`.
    func testAReplayReturnsTheReceiptStoredWithTheEventUntilItExpires() throws {
        for ownKey in [false, true] {
            var claim = android()
            claim.handoffToken = try addHandoff()
            if ownKey { claim.idempotencyKey = "key_" + SDKRequest.hex(20, upper: false) }
            let a = resolve(claim)
            a.assertMatch("exact_install_referrer")
            let receipt = try XCTUnwrap(a.receipt)
            let stored = try XCTUnwrap(store.reader(loop: 0).openEvent(id: XCTUnwrap(a.openId)))
            // Stored unsigned, signed on the way out (decision 0023).
            let input = try XCTUnwrap(stored.receiptInput)
            XCTAssertEqual(Array(receipt.utf8.prefix(input.count + 1)), input + [UInt8(ascii: ".")])
            XCTAssertEqual(stored.receiptExpiresAt, now + 600_000)

            let replay = resolve(claim, at: now + 599_999)
            replay.assertMatch("exact_install_referrer")
            XCTAssertEqual(replay.receipt, receipt, "own key: \(ownKey)")
            let late = resolve(claim, at: now + 600_000)
            late.assertMatch("exact_install_referrer")
            XCTAssertEqual(late.openId, a.openId)
            XCTAssertTrue(late.json["attributionReceipt"]?.isNull ?? false, "own key: \(ownKey)")
        }
        let none = android()
        resolve(none).assertMatch("none")
        XCTAssertNil(try store.reader(loop: 0).openEvent(app: appId, eventId: none.eventId)?.receipt)
    }
}
