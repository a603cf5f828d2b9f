import Core
import Foundation
import XCTest

@testable import Certificates

/// ACME's signed requests: flattened JWS with ES256, checked by OpenSSL's command line
/// from the public JWK alone; the JWK thumbprint; the external account binding.
final class JWSTests: XCTestCase {
    private func decode(_ field: JSONValue?) throws -> JSONValue {
        let bytes = try XCTUnwrap(Base64URL.decode(try XCTUnwrap(field?.stringValue)))
        return try JSONParser.parse(bytes)
    }

    func testAnES256SignatureVerifiesWithOpenSSLFromThePublicJWK() throws {
        let key = try ECKey.generate()
        let body = try JSONParser.parse(
            try JWS.sign(
                payload: ["identifiers": [["type": "dns", "value": "go.example.test"]]],
                url: "https://ca.test/new-order", nonce: "bm9uY2U", key: key, identification: .jwk))
        let protected = try decode(body["protected"])
        XCTAssertEqual(protected["alg"], "ES256")
        XCTAssertEqual(protected["nonce"], "bm9uY2U")
        XCTAssertEqual(protected["url"], "https://ca.test/new-order")
        XCTAssertNil(protected["kid"])
        let jwk = try XCTUnwrap(protected["jwk"])
        XCTAssertEqual(jwk["kty"], "EC")
        XCTAssertEqual(jwk["crv"], "P-256")
        XCTAssertEqual(try decode(body["payload"])["identifiers"]?.arrayValue?.count, 1)

        let signature = try XCTUnwrap(Base64URL.decode(try XCTUnwrap(body["signature"]?.stringValue)))
        XCTAssertEqual(signature.count, 64, "r || s, not DER")
        let signed = Array((body["protected"]!.stringValue! + "." + body["payload"]!.stringValue!).utf8)
        let x = try XCTUnwrap(Base64URL.decode(try XCTUnwrap(jwk["x"]?.stringValue)))
        let y = try XCTUnwrap(Base64URL.decode(try XCTUnwrap(jwk["y"]?.stringValue)))

        let dir = try OpenSSLTool.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try OpenSSLTool.publicKeyPEM(x: x, y: y).write(toFile: dir + "/pub.pem", atomically: true, encoding: .utf8)
        try Data(OpenSSLTool.derSignature(signature)).write(to: URL(fileURLWithPath: dir + "/sig.der"))
        try Data(signed).write(to: URL(fileURLWithPath: dir + "/data"))
        let good = try OpenSSLTool.run(
            ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "data"], in: dir)
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.output.contains("Verified OK"), good.output)

        try Data(signed + [0x20]).write(to: URL(fileURLWithPath: dir + "/data"))
        let bad = try OpenSSLTool.run(
            ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.der", "data"], in: dir)
        XCTAssertNotEqual(bad.status, 0, "a changed message must not verify")
        XCTAssertTrue(key.verify(signature, of: signed))
        XCTAssertFalse(key.verify(signature, of: signed + [0]))
    }

    func testAfterTheAccountARequestNamesItsKidAndAPostAsGetHasAnEmptyPayload() throws {
        let key = try ECKey.generate()
        let body = try JSONParser.parse(
            try JWS.sign(
                payload: nil, url: "https://ca.test/order/1", nonce: "n", key: key,
                identification: .kid("https://ca.test/acct/7")))
        let protected = try decode(body["protected"])
        XCTAssertEqual(protected["kid"], "https://ca.test/acct/7")
        XCTAssertNil(protected["jwk"])
        XCTAssertEqual(body["payload"], "")
        let signature = try XCTUnwrap(Base64URL.decode(body["signature"]!.stringValue!))
        XCTAssertTrue(key.verify(signature, of: Array((body["protected"]!.stringValue! + ".").utf8)))
    }

    func testTheThumbprintIsTheSHA256OfTheCanonicalJWKAndEndsTheKeyAuthorization() throws {
        let key = try ECKey.generate()
        let jwk = key.publicJWK
        // RFC 7638: the required members only, in lexicographic order, no white space.
        let canonical =
            "{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"\(jwk["x"]!.stringValue!)\",\"y\":\"\(jwk["y"]!.stringValue!)\"}"
        XCTAssertEqual(key.thumbprint, Base64URL.encode(SHA256.hash(canonical)))
        XCTAssertEqual(key.thumbprint.count, 43)
        XCTAssertEqual(JWS.keyAuthorization(token: "tok_en-1", accountKey: key), "tok_en-1." + key.thumbprint)
    }

    func testAKeyKeptAsPEMIsTheSameKey() throws {
        let key = try ECKey.generate()
        XCTAssertTrue(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try ECKey(pem: key.pem)
        XCTAssertEqual(again.thumbprint, key.thumbprint)
        let signature = try again.sign([1, 2, 3])
        XCTAssertTrue(key.verify(signature, of: [1, 2, 3]))
        XCTAssertThrowsError(try ECKey(pem: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n"))
    }

    func testHMACSHA256MatchesRFC4231() {
        // RFC 4231, test case 2.
        let mac = HMACSHA256.mac(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        XCTAssertEqual(SHA256.hex(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testTheExternalAccountBindingSignsTheAccountKeyWithTheCAsMACKey() throws {
        let key = try ECKey.generate()
        let macKey = Array("a MAC key the CA gave".utf8)
        let binding = JWS.externalAccountBinding(
            accountKey: key, keyID: "kid-1", macKey: macKey, url: "https://ca.test/new-account")
        let protected = try decode(binding["protected"])
        XCTAssertEqual(protected["alg"], "HS256")
        XCTAssertEqual(protected["kid"], "kid-1")
        XCTAssertEqual(protected["url"], "https://ca.test/new-account")
        XCTAssertNil(protected["nonce"], "RFC 8555, 7.3.4: no nonce in the inner JWS")
        XCTAssertEqual(try decode(binding["payload"]), key.publicJWK)
        let signed = Array((binding["protected"]!.stringValue! + "." + binding["payload"]!.stringValue!).utf8)
        XCTAssertEqual(
            Base64URL.decode(binding["signature"]!.stringValue!), HMACSHA256.mac(key: macKey, data: signed))
    }
}
