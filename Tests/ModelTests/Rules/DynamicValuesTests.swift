import XCTest

@testable import Model

final class DynamicValuesTests: XCTestCase {
    private func capture(_ query: String?, _ allowed: [String] = ["ref", "campaign", "color"]) -> [String] {
        DynamicValues.capture(query: query.map { Substring($0) }, allowed: allowed).map { "\($0.0)=\($0.1)" }
    }

    func testKeepsOnlyAllowedKeysInQueryOrder() {
        XCTAssertEqual(
            capture("utm_source=x&campaign=spring&token=secret&ref=bob&color=red"),
            ["campaign=spring", "ref=bob", "color=red"])
    }

    func testNoQueryOrNoAllowedKeysCapturesNothing() {
        XCTAssertEqual(capture(nil), [])
        XCTAssertEqual(capture(""), [])
        XCTAssertEqual(capture("ref=bob", []), [])
    }

    func testDecodesPercentEscapesOnceAndPlusAsSpace() {
        XCTAssertEqual(capture("campaign=spring+sale%21"), ["campaign=spring sale!"])
        XCTAssertEqual(capture("campaign=%2541"), ["campaign=%41"], "decoded exactly once")
        XCTAssertEqual(capture("campaign=caf%C3%A9"), ["campaign=café"])
        XCTAssertEqual(capture("campaign=a%2Bb"), ["campaign=a+b"])
        XCTAssertEqual(capture("%72%65%66=bob"), ["ref=bob"], "keys are decoded before the allow-list check")
        XCTAssertEqual(capture("campaign=a=b"), ["campaign=a=b"], "only the first = splits")
    }

    func testPairsWithBrokenEscapesOrInvalidUTF8AreDropped() {
        XCTAssertEqual(capture("campaign=100%&ref=bob"), ["ref=bob"])
        XCTAssertEqual(capture("campaign=%zz&ref=bob"), ["ref=bob"])
        XCTAssertEqual(capture("campaign=%FF%FE&ref=bob"), ["ref=bob"])
        XCTAssertEqual(capture("ref%=x&ref=bob"), ["ref=bob"])
    }

    func testEmptyValuesAreDropped() {
        XCTAssertEqual(capture("ref=&campaign&color=red"), ["color=red"])
        XCTAssertEqual(capture("ref=+"), ["ref= "], "a space is not empty")
    }

    func testFirstAcceptableValueOfAKeyWins() {
        XCTAssertEqual(capture("ref=alice&ref=bob"), ["ref=alice"])
        XCTAssertEqual(capture("ref=&ref=bob"), ["ref=bob"], "an empty value does not claim the key")
        XCTAssertEqual(capture("ref=" + String(repeating: "x", count: 300) + "&ref=bob"), ["ref=bob"])
        XCTAssertEqual(capture("ref=alice&%72ef=bob"), ["ref=alice"])
        XCTAssertEqual(capture("ref&ref=bob"), ["ref=bob"])
    }

    func testValuesUpTo256ScalarsAreKeptLongerOnesDroppedNotTruncated() {
        let ok = String(repeating: "a", count: 256)
        let long = String(repeating: "a", count: 257)
        XCTAssertEqual(capture("campaign=" + ok), ["campaign=" + ok])
        XCTAssertEqual(capture("campaign=" + long + "&ref=bob"), ["ref=bob"])
        // 256 two-byte characters are 256 scalars, not 512.
        let accents = String(repeating: "%C3%A9", count: 256)
        XCTAssertEqual(capture("campaign=" + accents).count, 1)
    }

    func testAtMostTwentyValues() {
        let keys = (0..<25).map { "k\($0)" }
        let query = keys.map { "\($0)=v" }.joined(separator: "&")
        let captured = DynamicValues.capture(query: Substring(query), allowed: keys)
        XCTAssertEqual(captured.count, 20)
        XCTAssertEqual(captured.first?.0, "k0")
        XCTAssertEqual(captured.last?.0, "k19")
    }

    func testEmptyPairsAndKeysAreSkipped() {
        XCTAssertEqual(capture("&&ref=bob&&=x&"), ["ref=bob"])
    }

    func testStaticReferralCodeWins() {
        XCTAssertEqual(DynamicValues.referralCode(static: "STATIC", dynamic: [("ref", "bob")]), "STATIC")
    }

    func testAllowedRefSuppliesTheReferralCodeOtherwise() {
        XCTAssertEqual(DynamicValues.referralCode(static: nil, dynamic: [("campaign", "x"), ("ref", "bob")]), "bob")
        XCTAssertEqual(DynamicValues.referralCode(static: "", dynamic: [("ref", "bob")]), "bob")
        XCTAssertNil(DynamicValues.referralCode(static: nil, dynamic: [("campaign", "x")]))
        // A ref the link does not allow never gets captured, so never becomes the code.
        let captured = DynamicValues.capture(query: "ref=bob", allowed: ["campaign"])
        XCTAssertNil(DynamicValues.referralCode(static: nil, dynamic: captured))
    }

    func testOverlongRefStaysDynamicButIsNotAReferralCode() {
        let long = String(repeating: "r", count: 129)
        let captured = DynamicValues.capture(query: Substring("ref=" + long), allowed: ["ref"])
        XCTAssertEqual(captured.count, 1)
        XCTAssertNil(DynamicValues.referralCode(static: nil, dynamic: captured))
        let fits = String(repeating: "r", count: 128)
        XCTAssertEqual(DynamicValues.referralCode(static: nil, dynamic: [("ref", fits)]), fits)
    }
}
