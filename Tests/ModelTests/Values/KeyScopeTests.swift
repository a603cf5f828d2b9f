import XCTest

@testable import Model

/// Workspace key scopes: a key without scopes holds every power; a scoped one only its own.
final class KeyScopeTests: XCTestCase {
    func testAKeyWithoutScopesAllowsEverything() {
        let old = SecretKeyRecord(id: "sk_1", name: "old", keyHash: [1], hint: "abcd", createdAt: 0)
        XCTAssertNil(old.scopes)
        for scope in KeyScope.allCases { XCTAssertTrue(old.allows(scope), scope.rawValue) }
    }

    func testAScopedKeyAllowsOnlyItsScopes() {
        let shop = SecretKeyRecord(
            id: "sk_2", name: "shop", keyHash: [2], hint: "abcd", createdAt: 0, scopes: [.conversionsCreate])
        XCTAssertTrue(shop.allows(.conversionsCreate))
        XCTAssertFalse(shop.allows(.linksRead))
        XCTAssertFalse(shop.allows(.domainsWrite))
    }

    func testParsingAndTheStoredForm() {
        var unknown: String?
        XCTAssertEqual(
            KeyScope.parse("links.write, conversions.create links.write", unknown: &unknown),
            [.conversionsCreate, .linksWrite])
        XCTAssertNil(unknown)
        XCTAssertNil(KeyScope.parse("links.read,conversions.delete", unknown: &unknown))
        XCTAssertEqual(unknown, "conversions.delete")
        XCTAssertEqual(KeyScope.encode([.linksWrite, .conversionsCreate]), "conversions.create links.write")
    }
}
