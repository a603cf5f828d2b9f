import Core
import XCTest

@testable import Model

/// Issue 33 item 11, decision 0031: signing secrets sealed at rest, and the keyring's file.
final class WebhookSecretSealTests: XCTestCase {
    let key = WebhookKeyring.Key(id: "wk_0011223344556677", bytes: Array(repeating: 7, count: 32))
    let other = WebhookKeyring.Key(id: "wk_8899aabbccddeeff", bytes: Array(repeating: 9, count: 32))

    func testASealedSecretOpensWithItsKeyAndEndpointOnly() throws {
        let secret = WebhookSecret.make()
        let sealed = WebhookSecretSeal.seal(secret, endpointId: "biq_whk_1", key: key)
        XCTAssertTrue(sealed.hasPrefix("whenc1.wk_0011223344556677." + secret.suffix(4) + "."))
        XCTAssertFalse(sealed.contains(String(secret.dropFirst(6).prefix(40))), "no part of the key in clear")
        XCTAssertNotEqual(sealed, WebhookSecretSeal.seal(secret, endpointId: "biq_whk_1", key: key), "a new nonce")
        let ring = WebhookKeyring(keys: [other, key])
        XCTAssertEqual(try WebhookSecretSeal.open(sealed, endpointId: "biq_whk_1", keyring: ring), secret)
        XCTAssertEqual(WebhookSecretSeal.keyId(sealed), key.id)
        XCTAssertEqual(WebhookSecret.hint(sealed), WebhookSecret.hint(secret))
        // Another endpoint's, another keyring, a changed byte: refused, never a wrong secret.
        XCTAssertThrowsError(try WebhookSecretSeal.open(sealed, endpointId: "biq_whk_2", keyring: ring)) {
            XCTAssertEqual($0 as? WebhookSecretSeal.OpenError, .damaged)
        }
        XCTAssertThrowsError(try WebhookSecretSeal.open(sealed, endpointId: "biq_whk_1", keyring: .init(keys: [other])))
        {
            XCTAssertEqual($0 as? WebhookSecretSeal.OpenError, .unknownKey(key.id))
        }
        var bytes = Array(sealed.utf8)
        bytes[bytes.count - 3] = bytes[bytes.count - 3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        XCTAssertThrowsError(
            try WebhookSecretSeal.open(String(decoding: bytes, as: UTF8.self), endpointId: "biq_whk_1", keyring: ring))
        for broken in ["whenc1.", "whenc1.wk_00.abcd", "whenc1.nokey.abcd.AAAA", "whenc1.wk_00.abcd.!!!"] {
            XCTAssertThrowsError(try WebhookSecretSeal.open(broken, endpointId: "biq_whk_1", keyring: ring), broken)
        }
        // A secret stored by an older version is used as it is.
        XCTAssertEqual(try WebhookSecretSeal.open(secret, endpointId: "biq_whk_1", keyring: ring), secret)
        XCTAssertNil(WebhookSecretSeal.keyId(secret))
    }

    func testResealingMovesASecretToTheNewKey() throws {
        let secret = WebhookSecret.make()
        let ring = WebhookKeyring(keys: [other, key])
        let old = WebhookSecretSeal.seal(secret, endpointId: "e", key: key)
        let moved = try WebhookSecretSeal.reseal(old, endpointId: "e", keyring: ring, with: other)
        XCTAssertEqual(WebhookSecretSeal.keyId(moved), other.id)
        XCTAssertEqual(try WebhookSecretSeal.open(moved, endpointId: "e", keyring: .init(keys: [other])), secret)
        XCTAssertEqual(try WebhookSecretSeal.reseal(moved, endpointId: "e", keyring: ring, with: other), moved)
        let fromPlain = try WebhookSecretSeal.reseal(secret, endpointId: "e", keyring: ring, with: key)
        XCTAssertEqual(WebhookSecretSeal.keyId(fromPlain), key.id)
    }

    func testTheKeyringFileRoundTripsAndRefusesDamage() throws {
        let ring = WebhookKeyring(keys: [key, other, .generate()])
        XCTAssertEqual(try WebhookKeyring.parse(ring.text), ring)
        XCTAssertEqual(ring.current, key)
        XCTAssertTrue(ring.text.hasPrefix("# biqli-edge"))
        let made = WebhookKeyring.Key.generate()
        XCTAssertEqual(made.bytes.count, 32)
        XCTAssertTrue(made.id.hasPrefix("wk_"))
        XCTAssertNotEqual(made, WebhookKeyring.Key.generate())
        let line = key.id + " " + Base64.encode(key.bytes)
        XCTAssertEqual(try WebhookKeyring.parse("\n# c\n  " + line + "  \r\n").keys, [key])
        XCTAssertThrowsError(try WebhookKeyring.parse("# nothing\n")) {
            XCTAssertEqual($0 as? WebhookKeyring.ParseError, .empty)
        }
        XCTAssertThrowsError(try WebhookKeyring.parse(line + "\n" + line)) {
            XCTAssertEqual($0 as? WebhookKeyring.ParseError, .duplicateId(key.id))
        }
        for bad in [key.id + " " + Base64.encode([1, 2, 3]), "wk_X " + Base64.encode(key.bytes), key.id, "x y z"] {
            XCTAssertThrowsError(try WebhookKeyring.parse("# c\n" + bad)) {
                XCTAssertEqual($0 as? WebhookKeyring.ParseError, .malformedLine(2), bad)
            }
        }
    }
}
