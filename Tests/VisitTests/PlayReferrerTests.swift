import Model
import XCTest

@testable import Visit

final class PlayReferrerTests: XCTestCase {
    private let token = "bqmh_0123456789abcdefghijklmnopqrstuvwxyzABCDE_-"

    private func android(_ url: String? = nil) -> AndroidPlatform {
        AndroidPlatform(packageName: "com.example.app", playStoreUrl: url)
    }

    /// What the Android SDK would extract from the redirect.
    private func roundTrip(_ url: String) -> String? {
        PlayReferrer.referrerParameter(fromPlayURL: url).flatMap(PlayReferrer.token(fromReferrer:))
    }

    func testFixtureTokenIsWellFormed() {
        XCTAssertTrue(HandoffToken.isWellFormed(token))
    }

    func testDefaultURLNestsTheTokenEncodedExactlyOnce() {
        let url = PlayReferrer.url(app: android(), token: token)
        XCTAssertEqual(
            url, "https://play.google.com/store/apps/details?id=com.example.app&referrer=biqli_token%3D" + token)
        XCTAssertEqual(roundTrip(url), token)
    }

    func testDefaultURLIsTheWholeReferrerEncodedOnce() {
        // The one-string builder against its definition, for odd package names and tokens too.
        for package in ["com.example.app", "a_b.c1", "weird pkg&=%#/ü"] {
            for token in [token, HandoffToken.generate(), "bqmh_not&a=token#", ""] {
                XCTAssertEqual(
                    PlayReferrer.url(app: AndroidPlatform(packageName: package, playStoreUrl: nil), token: token),
                    PlayReferrer.storeBase + "?id=" + PercentCoding.encode(package.utf8) + "&referrer="
                        + PercentCoding.encode((PlayReferrer.tokenKey + "=" + token).utf8))
            }
        }
    }

    func testRoundTripWithGeneratedTokens() {
        for _ in 0..<100 {
            let t = HandoffToken.generate()
            let url = PlayReferrer.url(app: android(), token: t)
            XCTAssertEqual(roundTrip(url), t)
            let value = PlayReferrer.referrerParameter(fromPlayURL: url)!
            for raw in ["&", "#", "=", "+", "%25"] { XCTAssertFalse(value.contains(raw), "\(raw) in \(value)") }
        }
    }

    func testOperatorURLKeepsItsOtherItemsAndReferrer() {
        let custom =
            "https://play.google.com/store/apps/details?id=com.example.app&hl=de&referrer=utm_source%3Dnewsletter%26utm_medium%3Demail&gl=AT"
        let url = PlayReferrer.url(app: android(custom), token: token)
        XCTAssertEqual(
            url,
            "https://play.google.com/store/apps/details?id=com.example.app&hl=de&referrer="
                + "utm_source%3Dnewsletter%26utm_medium%3Demail%26biqli_token%3D" + token + "&gl=AT")
        XCTAssertEqual(roundTrip(url), token)
        let decoded = PercentCoding.decode(PlayReferrer.referrerParameter(fromPlayURL: url)!.utf8, plusAsSpace: false)
        XCTAssertEqual(decoded, "utm_source=newsletter&utm_medium=email&biqli_token=" + token)
    }

    func testOperatorURLWithoutReferrerOrIdGetsBoth() {
        XCTAssertEqual(
            PlayReferrer.url(app: android("https://play.google.com/store/apps/details?hl=en#reviews"), token: token),
            "https://play.google.com/store/apps/details?id=com.example.app&hl=en&referrer=biqli_token%3D" + token)
        XCTAssertEqual(
            PlayReferrer.url(app: android("https://play.google.com/store/apps/details"), token: token),
            "https://play.google.com/store/apps/details?id=com.example.app&referrer=biqli_token%3D" + token)
    }

    func testAStaleTokenInTheOperatorReferrerIsRemovedSoOursIsTheFirst() {
        let stale = "bqmh_" + String(repeating: "s", count: 43)
        let custom =
            "https://play.google.com/store/apps/details?id=com.example.app&referrer=biqli_token%3D\(stale)%26src%3Dx"
        let url = PlayReferrer.url(app: android(custom), token: token)
        XCTAssertEqual(roundTrip(url), token)
        XCTAssertFalse(url.contains(stale))
    }

    func testOperatorSpecialCharactersAreReEncodedNotDoubleEncoded() {
        // The operator's decoded referrer has a literal "+" and a "#"-free "%" sequence.
        let custom = "https://play.google.com/store/apps/details?id=com.example.app&referrer=a%3D1%2B2%26b%3Dc%20d"
        let url = PlayReferrer.url(app: android(custom), token: token)
        let value = PlayReferrer.referrerParameter(fromPlayURL: url)!
        XCTAssertEqual(value, "a%3D1%2B2%26b%3Dc%20d%26biqli_token%3D" + token)
        XCTAssertEqual(roundTrip(url), token)
    }

    func testSecondReferrerItemIsDropped() {
        let custom = "https://play.google.com/store/apps/details?id=com.example.app&referrer=a%3D1&referrer=b%3D2"
        let url = PlayReferrer.url(app: android(custom), token: token)
        XCTAssertEqual(url.components(separatedBy: "referrer=").count, 2)
        XCTAssertEqual(roundTrip(url), token)
    }

    func testDecodedReferrerStaysUnder200Bytes() {
        let fits = String(repeating: "x", count: PlayReferrer.maxOperatorReferrerBytes - 2)
        let custom = "https://play.google.com/store/apps/details?id=com.example.app&referrer=a%3D" + fits
        XCTAssertNoThrow(try PlayReferrer.validateStoreURL(custom, packageName: "com.example.app"))
        let url = PlayReferrer.url(app: android(custom), token: token)
        let decoded = PercentCoding.decode(PlayReferrer.referrerParameter(fromPlayURL: url)!.utf8, plusAsSpace: false)!
        XCTAssertEqual(decoded.utf8.count, 199)
        XCTAssertEqual(PlayReferrer.maxOperatorReferrerBytes, 138)
    }

    func testTooLongOperatorReferrerIsRefusedAtSaveAndDroppedAtVisit() {
        let long = String(repeating: "x", count: PlayReferrer.maxOperatorReferrerBytes - 1)
        let custom = "https://play.google.com/store/apps/details?id=com.example.app&hl=fr&referrer=a%3D" + long
        XCTAssertThrowsError(try PlayReferrer.validateStoreURL(custom, packageName: "com.example.app")) { error in
            XCTAssertEqual(error as? PlayStoreURLError, .referrerTooLong(bytes: 139, limit: 138))
            XCTAssertEqual((error as? PlayStoreURLError)?.field, "android.playStoreUrl")
        }
        XCTAssertEqual(
            PlayReferrer.url(app: android(custom), token: token),
            "https://play.google.com/store/apps/details?id=com.example.app&hl=fr&referrer=biqli_token%3D" + token)
    }

    func testInvalidOperatorURLsAreRefusedAtSaveAndReplacedAtVisit() {
        let table: [(String, PlayStoreURLError)] = [
            ("http://play.google.com/store/apps/details?id=com.example.app", .notPlayStoreURL),
            ("https://play.google.com.evil.test/store/apps/details?id=com.example.app", .notPlayStoreURL),
            ("https://play.google.com/store/apps/detailsX?id=com.example.app", .notPlayStoreURL),
            ("market://details?id=com.example.app", .notPlayStoreURL),
            ("https://play.google.com/store/apps/details?id=com.other.app", .packageMismatch(found: "com.other.app")),
            ("https://play.google.com/store/apps/details?id=com.example.app&x=a b", .invalidCharacters),
            ("https://play.google.com/store/apps/details?id=com.example.app&referrer=%FF", .referrerNotDecodable),
            ("https://play.google.com/store/apps/details?id=com.example.app&referrer=a%3D100%", .referrerNotDecodable),
        ]
        let fallback = PlayReferrer.url(app: android(), token: token)
        for (url, expected) in table {
            XCTAssertThrowsError(try PlayReferrer.validateStoreURL(url, packageName: "com.example.app"), url) { error in
                XCTAssertEqual(error as? PlayStoreURLError, expected, url)
            }
            XCTAssertEqual(PlayReferrer.url(app: android(url), token: token), fallback, url)
        }
    }

    func testExtractorMirrorsTheSDK() {
        XCTAssertEqual(PlayReferrer.token(fromReferrer: "biqli_token%3D" + token), token)
        XCTAssertEqual(PlayReferrer.token(fromReferrer: "a%3D1%26biqli_token%3D" + token + "%26b%3D2"), token)
        XCTAssertNil(PlayReferrer.token(fromReferrer: "biqli_token%3Dbqmh_short"))
        XCTAssertNil(PlayReferrer.token(fromReferrer: "utm_source%3Dx"))
        // The first biqli_token decides, even when it is malformed.
        XCTAssertNil(PlayReferrer.token(fromReferrer: "biqli_token%3Dx%26biqli_token%3D" + token))
        // Double encoding loses the token: the SDK decodes only once.
        XCTAssertNil(PlayReferrer.token(fromReferrer: "biqli_token%253D" + token))
        XCTAssertNil(PlayReferrer.referrerParameter(fromPlayURL: "https://play.google.com/store/apps/details?id=x"))
    }
}
