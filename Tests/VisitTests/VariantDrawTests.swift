import Model
import XCTest

@testable import Visit

/// The A/B arm drawn by weight and kept in the `bq_v` cookie (decision 0032).
final class VariantDrawTests: XCTestCase {
    private let variants = [
        LinkVariant(url: "https://a.test/", weight: 50), LinkVariant(url: "https://b.test/", weight: 30),
        LinkVariant(url: "https://c.test/", weight: 20),
    ]

    func testTheRollsEndsLandOnTheFirstAndLastArms() {
        XCTAssertEqual(VariantDraw.arm(variants, roll: 0), 0)
        XCTAssertEqual(VariantDraw.arm(variants, roll: .max), 2)
        // The boundary between arm 0 (0..<50 of 100) and arm 1.
        let half = UInt64.max / 2
        XCTAssertEqual(VariantDraw.arm(variants, roll: half), 0)
        XCTAssertEqual(VariantDraw.arm(variants, roll: half + 2), 1)
    }

    /// 10,000 seeded draws: each arm's count within 4 standard deviations of its expected
    /// count (binomial: sqrt(n p (1 - p)), 50 for p = 0.5, 45.8 for 0.3, 40 for 0.2); a
    /// fair draw misses this about once in 16,000 seeds.
    func testTenThousandDrawsFollowTheWeights() {
        var generator = SeededGenerator(seed: 35)
        var counts = [0, 0, 0]
        let n = 10_000
        for _ in 0..<n { counts[VariantDraw.arm(variants, roll: generator.next())] += 1 }
        for (i, v) in variants.enumerated() {
            let p = Double(v.weight) / 100
            let expected = Double(n) * p
            let tolerance = 4 * (Double(n) * p * (1 - p)).squareRoot()
            XCTAssertLessThan(abs(Double(counts[i]) - expected), tolerance, "arm \(i): \(counts)")
        }
    }

    func testTheFingerprintChangesWithTheTest() {
        let fp = VariantDraw.fingerprint(variants)
        // Pinned: a new hash would start every running test afresh after an upgrade.
        XCTAssertEqual(fp, "f1d92b91")
        XCTAssertTrue(fp.allSatisfy(\.isHexDigit))
        XCTAssertEqual(fp, VariantDraw.fingerprint(variants))
        var reweighted = variants
        reweighted[0].weight = 40
        reweighted[1].weight = 40
        XCTAssertNotEqual(VariantDraw.fingerprint(reweighted), fp)
        var moved = variants
        moved[2].url = "https://d.test/"
        XCTAssertNotEqual(VariantDraw.fingerprint(moved), fp)
    }

    func testTheCookieIsReadBackOnlyWithItsFingerprint() {
        let fp = "0123abcd"
        XCTAssertEqual(VariantCookie.arm(cookieHeader: "bq_v=2.0123abcd", fingerprint: fp, count: 3), 2)
        XCTAssertEqual(VariantCookie.arm(cookieHeader: "a=b; bq_v=1.0123abcd; c=d", fingerprint: fp, count: 3), 1)
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=1.ffffffff", fingerprint: fp, count: 3))
        XCTAssertEqual(
            VariantCookie.arm(cookieHeader: "bq_v=1.ffffffff; bq_v=0.0123abcd", fingerprint: fp, count: 3), 0)
        XCTAssertNil(VariantCookie.arm(cookieHeader: nil, fingerprint: fp, count: 3))
        XCTAssertNil(VariantCookie.arm(cookieHeader: "xbq_v=1.0123abcd", fingerprint: fp, count: 3))
    }

    func testAnArmOutOfRangeIsIgnored() {
        let fp = "0123abcd"
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=3.0123abcd", fingerprint: fp, count: 3))
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=-1.0123abcd", fingerprint: fp, count: 3))
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=+1.0123abcd", fingerprint: fp, count: 3))
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=10.0123abcd", fingerprint: fp, count: 3))
        XCTAssertNil(VariantCookie.arm(cookieHeader: "bq_v=.0123abcd", fingerprint: fp, count: 3))
    }

    func testTheSetCookie() {
        XCTAssertEqual(
            VariantCookie.setCookie(arm: 1, fingerprint: "0123abcd", key: "spring", secure: true),
            "bq_v=1.0123abcd; Path=/spring; Max-Age=7776000; HttpOnly; SameSite=Lax; Secure")
        XCTAssertEqual(
            VariantCookie.setCookie(arm: 0, fingerprint: "0123abcd", key: "k", secure: false),
            "bq_v=0.0123abcd; Path=/k; Max-Age=7776000; HttpOnly; SameSite=Lax")
    }
}
