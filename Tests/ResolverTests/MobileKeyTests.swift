import Core
import Model
import Store
import XCTest

@testable import Resolver

final class MobileKeyTests: XCTestCase {
    func testMissingMalformedOrUnknownKeyIsInvalidMobileKey() {
        let w = World()
        let cases: [String?] = [
            nil, "Bearer", "Bearer ", "Basic abc", "Bearer biqli_pk_abc", "Bearer biqli_mobile_pk_short",
            "Bearer " + World.makeKey() + "x", "Bearer " + World.makeKey(),
            "Bearer biqli_mobile_pk_" + String(repeating: "!", count: 64),
        ]
        for value in cases {
            var r = w.ios()
            r.headerOverrides = [("authorization", value)]
            let a = w.resolve(r)
            a.assertError(401, "invalid_mobile_key")
            XCTAssertFalse(a.bodyText.contains("biqli_mobile_pk_"), "the key never appears in an error")
        }
    }

    func testBearerSchemeIsCaseInsensitive() {
        let w = World()
        var r = w.ios()
        r.headerOverrides = [("authorization", "bearer " + w.key)]
        XCTAssertEqual(w.resolve(r).status, 200)
    }

    func testRevokedKeyIsRefused() {
        let w = World()
        w.store.seed { $0.publishableKeys["pk1"]!.revokedAt = World.t0 - 1 }
        w.resolve(w.ios()).assertError(401, "invalid_mobile_key")
    }

    func testRotatedKeyWorksUntilItsOverlapEndsThen401() {
        let w = World()
        let newKey = World.makeKey()
        let appId = w.appId
        w.store.seed { st in
            st.publishableKeys["pk1"]!.expiresAt = World.t0 + 3_600_000
            st.publishableKeys["pk3"] = PublishableKeyRecord(
                id: "pk3", appId: appId, keyHash: SHA256.hash(newKey), hint: "", createdAt: World.t0)
        }
        XCTAssertEqual(w.resolve(w.ios()).status, 200, "old key inside its overlap")
        var fresh = w.ios()
        fresh.publishableKey = newKey
        XCTAssertEqual(w.resolve(fresh).status, 200, "new key")

        w.now = World.t0 + 3_600_000
        w.resolve(w.ios()).assertError(401, "invalid_mobile_key")
        var freshLater = w.ios()
        freshLater.publishableKey = newKey
        XCTAssertEqual(w.resolve(freshLater).status, 200)
    }

    func testKeyOfAnotherAppIsResourceNotFound() {
        let w = World()
        var r = w.ios()
        r.publishableKey = w.otherAppKey
        w.resolve(r).assertError(404, "resource_not_found")
    }

    func testKeyIsCheckedBeforeTheBody() {
        let w = World()
        var r = w.ios()
        r.publishableKey = World.makeKey()
        w.resolve(r.input(now: w.now, body: Array("not json".utf8))).assertError(401, "invalid_mobile_key")
    }

    func testWellFormedKeyShapes() {
        XCTAssertTrue(MobileKey.isWellFormed("biqli_mobile_pk_" + String(repeating: "aZ0_-", count: 12) + "abcd"))
        XCTAssertFalse(MobileKey.isWellFormed("biqli_mobile_pk_" + String(repeating: "a", count: 63)))
        XCTAssertFalse(MobileKey.isWellFormed("biqli_mobile_pk_" + String(repeating: "a", count: 65)))
        XCTAssertFalse(MobileKey.isWellFormed("biqli_secret_pk_" + String(repeating: "a", count: 64)))
        XCTAssertFalse(MobileKey.isWellFormed("biqli_mobile_pk_" + String(repeating: "a", count: 63) + "="))
    }

    func testBearerSchemeAndWhitespace() {
        func token(_ value: String) -> String? {
            var v = value
            return v.withUTF8 { u in
                MobileKey.bearerRange(u).map { String(decoding: UnsafeBufferPointer(rebasing: u[$0]), as: UTF8.self) }
            }
        }
        XCTAssertEqual(token("Bearer k"), "k")
        XCTAssertEqual(token("bEaReR \t k \t"), "k")
        XCTAssertNil(token("Bearer "))
        XCTAssertNil(token("Bearer \t "))
        XCTAssertNil(token("Bearerk"))
        XCTAssertNil(token("Basic k"))
        XCTAssertNil(token("Bearer"))
    }

    /// A key sent with two spellings of the scheme and extra whitespace is the same key.
    func testSchemeSpellingsAndWhitespaceAuthenticateTheSameKey() {
        let w = World()
        for value in ["Bearer " + w.key, "BEARER \t" + w.key, "bearer  " + w.key] {
            var r = w.ios()
            r.headerOverrides = [("authorization", value)]
            XCTAssertEqual(w.resolve(r).status, 200, value)
        }
    }
}
