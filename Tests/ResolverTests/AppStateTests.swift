import Core
import Model
import Store
import XCTest

@testable import Resolver

final class AppStateTests: XCTestCase {
    func testAppIdThatIsNotTheKeysAppIsResourceNotFound() {
        let w = World()
        var r = w.ios()
        r.appId = w.otherAppId
        w.resolve(r).assertError(404, "resource_not_found")
        var unknown = w.ios()
        unknown.appId = "biq_mapp_" + ULID.make()
        w.resolve(unknown).assertError(404, "resource_not_found")
    }

    func testDeletedAppIsResourceNotFound() {
        let w = World()
        let id = w.appId
        w.store.seed { $0.apps[id] = nil }
        w.resolve(w.android()).assertError(404, "resource_not_found")
    }

    func testDeletingAnAppRevokesAKeyTheKeyCacheStillHolds() throws {
        let w = World()
        XCTAssertEqual(w.resolve(w.android()).status, 200)  // the key is now cached on this loop
        let id = w.appId
        _ = try w.store.writeAndWait { tx in try tx.deleteApp(id) }
        w.resolve(w.android()).assertError(401, "invalid_mobile_key")
    }

    func testDisabledAppIsMobileLinkingUnavailable() {
        let w = World()
        w.updateApp { $0.enabled = false }
        w.resolve(w.ios()).assertError(403, "mobile_linking_unavailable")
        w.resolve(w.android()).assertError(403, "mobile_linking_unavailable")
    }

    func testMissingPlatformIsPlatformNotConfigured() {
        let w = World()
        w.updateApp { $0.android = nil }
        w.resolve(w.android()).assertError(422, "platform_not_configured")
        XCTAssertEqual(w.resolve(w.ios()).status, 200)
        w.updateApp { $0.ios = nil }
        w.resolve(w.ios()).assertError(422, "platform_not_configured")
    }

    func testSdkSwitchedOffIsMobileSdkUnavailable() {
        let w = World()
        w.updateApp { $0.ios?.sdkEnabled = false }
        w.resolve(w.ios()).assertError(403, "mobile_sdk_unavailable")
        XCTAssertEqual(w.resolve(w.android()).status, 200)
        w.updateApp { $0.android?.sdkEnabled = false }
        w.resolve(w.android()).assertError(403, "mobile_sdk_unavailable")
    }

    func testInstanceRegisteredToTheOtherPlatformIsPlatformMismatch() {
        let w = World()
        let instance = "install_" + SDKRequest.hex(32, upper: false)
        XCTAssertEqual(w.resolve(w.android(instance: instance)).status, 200)
        let a = w.resolve(w.ios(instance: instance))
        a.assertError(422, "platform_mismatch")
        XCTAssertEqual(w.openEvents.count, 1, "nothing written for the refused request")
    }

    func testAppStateIsCheckedBeforeHeaderAgreement() {
        let w = World()
        w.updateApp { $0.enabled = false }
        var r = w.ios()
        r.headerOverrides = [("x-biq-sdk-version", "9.9.9")]
        w.resolve(r).assertError(403, "mobile_linking_unavailable")
    }
}
