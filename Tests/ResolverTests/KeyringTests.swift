import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Resolver

final class KeyringTests: XCTestCase {
    func testFirstStartCreatesOneKeyAndARestartReusesIt() throws {
        let w = World()
        let records = w.store.committed.signingKeys
        XCTAssertEqual(records.count, 1)
        let record = try XCTUnwrap(records.values.first)
        XCTAssertEqual(record.kid, w.keyring.currentKeyId)
        XCTAssertEqual(record.publicKey.count, 32)
        XCTAssertEqual(record.secretKey.count, 32, "the seed is stored")
        let again = try ReceiptKeyring(store: w.store, now: World.t0 + 1_000)
        XCTAssertEqual(again.currentKeyId, w.keyring.currentKeyId)
        XCTAssertEqual(w.store.committed.signingKeys.count, 1)
    }

    func testKidIsTheRFC7638Thumbprint() throws {
        // RFC 8037 appendix A.3: the thumbprint of its example Ed25519 key.
        let x = try XCTUnwrap(Base64URL.decode("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"))
        XCTAssertEqual(SigningKey.thumbprint(x), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
    }

    func testSignatureMatchesRFC8032TestVector() throws {
        // RFC 8032 7.1 TEST 1: empty message. Our signer signs `header.payload`,
        // so check the key derivation, and that a signature verifies with the JWKS.
        let seed = try XCTUnwrap(hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        let key = try XCTUnwrap(SigningKey(secretKey: seed, createdAt: 0))
        XCTAssertEqual(key.publicKey, hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let jws = String(decoding: key.sign(payload: Array(#"{"a":1}"#.utf8)), as: UTF8.self)
        let record = SigningKeyRecord(kid: key.kid, publicKey: key.publicKey, secretKey: seed, createdAt: 0)
        XCTAssertNotNil(ReceiptVerifier.verify(jws, jwks: JWKS.document([record], now: 0)))
    }

    func testRotationSignsWithTheNewKeyAndKeepsTheOldOnePublishedUntilItsReceiptsExpire() throws {
        let w = World()
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite"
        let oldReceipt = try XCTUnwrap(w.resolve(r).receipt)
        let oldKid = w.keyring.currentKeyId

        try w.keyring.rotate(now: w.now)
        XCTAssertNotEqual(w.keyring.currentKeyId, oldKid)
        var r2 = w.ios()
        r2.deepLink = "https://go.example.test/invite"
        let newReceipt = try XCTUnwrap(w.resolve(r2).receipt)
        let jwksNow = w.resolver.jwks(readerLoop: 0, now: w.now).body
        XCTAssertEqual(
            ReceiptVerifier.verify(newReceipt, jwks: jwksNow)?.header["kid"]?.stringValue, w.keyring.currentKeyId)
        XCTAssertNotNil(ReceiptVerifier.verify(oldReceipt, jwks: jwksNow), "old receipts still verify")

        let old = try XCTUnwrap(w.store.committed.signingKeys[oldKid])
        XCTAssertEqual(old.retiredAt, w.now)
        XCTAssertEqual(old.publishUntil, w.now + 1_200_000, "10-minute lifetime + 10-minute margin")
        let justBefore = w.resolver.jwks(readerLoop: 0, now: w.now + 1_199_999).body
        XCTAssertNotNil(ReceiptVerifier.verify(oldReceipt, jwks: justBefore))
        let after = w.resolver.jwks(readerLoop: 0, now: w.now + 1_200_000).body
        XCTAssertNil(ReceiptVerifier.verify(oldReceipt, jwks: after))
        XCTAssertNotNil(ReceiptVerifier.verify(newReceipt, jwks: after))
    }

    func testAutomaticRotationAfterTheInterval() throws {
        let w = World(keyring: .init(rotationIntervalSeconds: 3_600))
        let first = w.keyring.currentKeyId
        XCTAssertFalse(try w.keyring.rotateIfDue(now: World.t0 + 3_599_999))
        w.now = World.t0 + 3_600_000
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite"
        XCTAssertNotNil(w.resolve(r).receipt, "the due key still signs while the new one is written")
        let deadline = Date().addingTimeInterval(5)
        while w.keyring.currentKeyId == first && Date() < deadline { usleep(1_000) }
        XCTAssertNotEqual(w.keyring.currentKeyId, first)
        XCTAssertEqual(w.store.committed.signingKeys.count, 2)
        XCTAssertFalse(try w.keyring.rotateIfDue(now: w.now))
    }

    func testStartingLongAfterTheIntervalRotatesAtOnce() throws {
        let w = World(keyring: .init(rotationIntervalSeconds: 60))
        let restarted = try ReceiptKeyring(
            store: w.store, configuration: .init(rotationIntervalSeconds: 60), now: World.t0 + 3_600_000)
        XCTAssertNotEqual(restarted.currentKeyId, w.keyring.currentKeyId)
    }

    func testJWKSListsOnlyPublicPartsNewestFirst() throws {
        let w = World()
        try w.keyring.rotate(now: w.now + 1)
        let out = w.resolver.jwks(readerLoop: 0, now: w.now + 2)
        XCTAssertEqual(out.status, 200)
        XCTAssertEqual(out.headers["Content-Type"], "application/json")
        XCTAssertEqual(out.headers["Cache-Control"], "public, max-age=300")
        let doc = try JSONParser.parse(out.body)
        let keys = try XCTUnwrap(doc["keys"]?.arrayValue)
        XCTAssertEqual(keys.count, 2)
        XCTAssertEqual(keys.first?["kid"]?.stringValue, w.keyring.currentKeyId)
        for k in keys {
            XCTAssertEqual(k.objectValue?.map(\.0), ["kty", "crv", "x", "kid", "use", "alg"])
            XCTAssertEqual(k["kty"], "OKP")
            XCTAssertEqual(k["crv"], "Ed25519")
            XCTAssertEqual(k["use"], "sig")
            XCTAssertEqual(k["alg"], "EdDSA")
            XCTAssertEqual(Base64URL.decode(k["x"]!.stringValue!)?.count, 32)
        }
        XCTAssertEqual(Array(w.keyring.jwks(now: w.now + 2)), out.body)
    }

    func testSigningIsFastEnough() throws {
        let w = World()
        let claims = Array(#"{"iss":"x","sub":"install_0123456789abcdef","exp":1}"#.utf8)
        let start = Date()
        for _ in 0..<2_000 { _ = w.keyring.sign(claims, now: w.now) }
        let perSecond = 2_000 / Date().timeIntervalSince(start)
        XCTAssertGreaterThan(perSecond, 2_000, "debug build; release is ~20x faster")
    }

    private func hex(_ s: String) -> [UInt8]? {
        var out: [UInt8] = []
        var it = s.makeIterator()
        while let a = it.next(), let b = it.next() {
            guard let v = UInt8(String([a, b]), radix: 16) else { return nil }
            out.append(v)
        }
        return out
    }
}

/// Decision 0023: the writer stores a receipt's signed part; the loop signs it.
final class UnsignedReceiptTests: XCTestCase {
    func testASigningInputSignsToTheSameJWSAsTheKeyAndAgainAfterARotation() throws {
        let w = World()
        let claims = Array(#"{"iss":"https://edge.example.test","jti":"x"}"#.utf8)
        let direct = w.keyring.sign(claims, now: w.now)
        let input = w.keyring.signingInput(claims, now: w.now)
        XCTAssertEqual(Array(direct.prefix(input.count)), input)
        XCTAssertEqual(w.keyring.sign(input: input), direct, "Ed25519 is deterministic: the same JWS")
        // The key is retired: the stored input still signs with it, to the same bytes.
        try w.keyring.rotate(now: w.now)
        XCTAssertEqual(w.keyring.sign(input: input), direct)
        XCTAssertNil(w.keyring.sign(input: Array("eyJhbGciOiJFZERTQSJ9.e30".utf8)), "no key made this one")
    }

    func testAHandoffMatchIsAnsweredWithTheSignedReceiptAndItsReplayWithTheSameOne() throws {
        let w = World()
        var r = w.android()
        r.handoffToken = w.addHandoff(platform: .android).token
        let first = w.resolve(r)
        first.assertMatch("exact_install_referrer")
        let receipt = try XCTUnwrap(first.receipt)
        XCTAssertNotNil(ReceiptVerifier.verify(receipt, jwks: w.resolver.jwks(readerLoop: 0, now: w.now).body))
        let stored = try XCTUnwrap(w.openEvents.first { $0.id == first.openId })
        XCTAssertNil(stored.receipt, "stored unsigned")
        XCTAssertNotNil(stored.receiptInput)
        try w.keyring.rotate(now: w.now)  // a replay after a rotation still gets the same receipt
        var retry = r
        retry.requestId = "req_" + SDKRequest.hex(32, upper: false)
        XCTAssertEqual(w.resolve(retry).receipt, receipt)
    }
}
