import Core
import Model
import Store
import XCTest

@testable import Resolver

final class ReceiptTests: XCTestCase {
    private func jwks(_ w: World) -> [UInt8] { w.resolver.jwks(readerLoop: 0, now: w.now).body }

    func testLiveMatchCarriesAReceiptThatVerifiesAgainstTheJWKS() throws {
        let w = World()
        var r = w.android()
        let (token, clickId) = w.addHandoff(platform: .android)
        r.handoffToken = token
        let a = w.resolve(r)
        let receipt = try XCTUnwrap(a.receipt)
        let verified = try XCTUnwrap(ReceiptVerifier.verify(receipt, jwks: jwks(w)))

        XCTAssertEqual(
            String(decoding: Base64URL.decode(String(receipt.split(separator: ".")[0]))!, as: UTF8.self),
            #"{"alg":"EdDSA","kid":""# + w.keyring.currentKeyId + #"","typ":"JWT"}"#)
        let c = verified.claims
        XCTAssertEqual(c["iss"]?.stringValue, w.publicURL)
        XCTAssertEqual(c["aud"]?.stringValue, w.appId)
        XCTAssertEqual(c["sub"]?.stringValue, r.appInstanceId)
        XCTAssertEqual(c["openId"]?.stringValue, a.openId)
        XCTAssertEqual(c["eventId"]?.stringValue, r.eventId)
        XCTAssertEqual(c["platform"]?.stringValue, "android")
        XCTAssertEqual(c["firstOpen"]?.boolValue, true)
        XCTAssertEqual(c["linkId"]?.stringValue, w.inviteId)
        XCTAssertEqual(c["clickId"]?.stringValue, clickId)
        XCTAssertEqual(c["matchedBy"]?.stringValue, "exact_install_referrer")
        XCTAssertEqual(c["confidence"]?.stringValue, "exact")
        XCTAssertEqual(c["referralCode"]?.stringValue, "PARTNER_42")
        XCTAssertEqual(c["iat"]?.intValue, w.now / 1000)
        XCTAssertEqual(c["exp"]?.intValue, w.now / 1000 + 600)
        XCTAssertTrue(c["jti"]?.stringValue?.hasPrefix("rcpt_") ?? false)
        XCTAssertFalse(
            String(decoding: Base64URL.decode(String(receipt.split(separator: ".")[1]))!, as: UTF8.self)
                .contains(token), "no token in the receipt")
    }

    func testTamperedReceiptDoesNotVerify() throws {
        let w = World()
        var r = w.ios()
        r.deepLink = "https://go.example.test/invite"
        let receipt = try XCTUnwrap(w.resolve(r).receipt)
        let parts = receipt.split(separator: ".").map(String.init)
        var claims = String(decoding: Base64URL.decode(parts[1])!, as: UTF8.self)
        claims = claims.replacingOccurrences(of: "exact_app_link", with: "exact_handoff")
        let forged = parts[0] + "." + Base64URL.encode(Array(claims.utf8)) + "." + parts[2]
        XCTAssertNotNil(ReceiptVerifier.verify(receipt, jwks: jwks(w)))
        XCTAssertNil(ReceiptVerifier.verify(forged, jwks: jwks(w)))
    }

    func testReceiptIdsAreUniqueAndAppLinkReceiptHasNullClick() throws {
        let w = World()
        var ids = Set<String>()
        for _ in 0..<20 {
            var r = w.ios()
            r.deepLink = "https://go.example.test/promo?ref=X"
            let v = try XCTUnwrap(ReceiptVerifier.verify(XCTUnwrap(w.resolve(r).receipt), jwks: jwks(w)))
            ids.insert(v.claims["jti"]!.stringValue!)
            XCTAssertTrue(v.claims["clickId"]?.isNull ?? false)
            XCTAssertEqual(v.claims["referralCode"]?.stringValue, "X")
        }
        XCTAssertEqual(ids.count, 20)
    }

    func testNoneAnswersCarryNoReceipt() {
        let w = World()
        let a = w.resolve(w.android())
        a.assertMatch("none")
        XCTAssertTrue(a.json["attributionReceipt"]?.isNull ?? false)
    }

    func testProbabilisticReceiptSaysProbabilistic() throws {
        let w = World()
        w.addIOSClick()
        var r = w.ios()
        r.probabilisticAllowed = true
        r.domain = "go.example.test"
        let v = try XCTUnwrap(ReceiptVerifier.verify(XCTUnwrap(w.resolve(r).receipt), jwks: jwks(w)))
        XCTAssertEqual(v.claims["matchedBy"]?.stringValue, "probabilistic")
        XCTAssertEqual(v.claims["confidence"]?.stringValue, "probabilistic")
    }

    /// Issue 14: every kind of match is stored with the receipt it was answered with,
    /// whether the loop signed it (app link) or the write body did (handoff, probabilistic).
    func testEveryMatchIsStoredWithTheReceiptItWasAnsweredWith() throws {
        let w = World()
        w.addIOSClick()
        var appLink = w.ios()
        appLink.deepLink = "https://go.example.test/invite"
        var iosHandoff = w.ios()
        iosHandoff.handoffToken = w.addHandoff(platform: .ios).token
        var referrer = w.android()
        referrer.handoffToken = w.addHandoff(platform: .android).token
        var probabilistic = w.ios()
        probabilistic.probabilisticAllowed = true
        probabilistic.domain = "go.example.test"
        for (r, kind) in [
            (appLink, "exact_app_link"), (iosHandoff, "exact_handoff"), (referrer, "exact_install_referrer"),
            (probabilistic, "probabilistic"),
        ] {
            let a = w.resolve(r)
            a.assertMatch(kind)
            let receipt = try XCTUnwrap(a.receipt, kind)
            let v = try XCTUnwrap(ReceiptVerifier.verify(receipt, jwks: jwks(w)), kind)
            let stored = try XCTUnwrap(w.openEvents.first { $0.id == a.openId }, kind)
            // Signed on the loop before the write (app link), or stored unsigned and signed
            // after the commit (decision 0023): either way the answer's receipt.
            if kind == "exact_app_link" {
                XCTAssertEqual(stored.receipt, Array(receipt.utf8), kind)
            } else {
                XCTAssertNil(stored.receipt, kind)
                let input = try XCTUnwrap(stored.receiptInput, kind)
                XCTAssertEqual(Array(receipt.utf8.prefix(input.count + 1)), input + [UInt8(ascii: ".")], kind)
            }
            XCTAssertEqual(stored.receiptExpiresAt, try XCTUnwrap(v.claims["exp"]?.intValue) * 1000, kind)
        }
    }
}
