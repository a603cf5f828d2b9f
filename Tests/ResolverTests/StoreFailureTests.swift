import Core
import Model
import Store
import XCTest

@testable import Resolver

final class StoreFailureTests: XCTestCase {
    func testFailedWriteIs500WithStandardEnvelopeAndNothingHalfWritten() {
        let w = World()
        var r = w.android()
        let token = w.addHandoff(platform: .android).token
        r.handoffToken = token
        w.store.failNextOpenEventInsert = .backend(code: 10, message: "disk I/O error")
        let a = w.resolve(r)
        a.assertError(500, "internal_server_error")
        XCTAssertEqual(a.json["request_id"]?.stringValue, r.requestId)
        XCTAssertTrue(w.openEvents.isEmpty)
        XCTAssertNil(w.store.committed.instances[MemoryState.instanceKey(w.appId, r.appInstanceId)], "rolled back")
        XCTAssertNil(w.store.committed.handoffs[SHA256.hash(token)]?.claimedByInstance)

        let retry = w.resolve(r)
        retry.assertMatch("exact_install_referrer")
        XCTAssertNotNil(retry.receipt)
    }

    func testConflictFromTheStoreIsRetriedOnce() {
        let w = World()
        w.store.failNextOpenEventInsert = .conflict(.eventId)
        let a = w.resolve(w.ios())
        a.assertMatch("none")
        XCTAssertEqual(w.openEvents.count, 1)
    }

    func testClosedStoreIs500() {
        let w = World()
        w.store.close()
        w.resolve(w.ios()).assertError(500, "internal_server_error")
    }

    func testInternalErrorsAreReportedWithoutSecrets() {
        let reported = Locked<[String]>([])
        let store = InMemoryStore()
        let keyring = try! ReceiptKeyring(store: store, now: World.t0)
        let resolver = Resolver(
            store: store, keyring: keyring,
            sourceAddressHasher: SourceAddressHasher(key: [UInt8](repeating: 1, count: 32)),
            configuration: .init(
                publicURL: "https://x", limits: .unlimited, onInternalError: { reported.value.append($0) }),
            httpsActive: { _ in true })
        let w = World()
        store.seed { st in st = w.store.committed }
        store.close()
        let done = DispatchSemaphore(value: 0)
        resolver.resolve(w.ios().input(now: World.t0)) { out in
            XCTAssertEqual(out.status, 500)
            done.signal()
        }
        done.wait()
        XCTAssertEqual(reported.value.count, 1)
        XCTAssertFalse(reported.value.joined().contains("biqli_mobile_pk_"))
    }
}
