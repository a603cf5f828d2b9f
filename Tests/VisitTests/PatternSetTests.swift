import XCTest

@testable import Visit

final class PatternSetTests: XCTestCase {
    private func found(_ set: PatternSet, _ text: String) -> [String] {
        var bytes = Array(text.utf8)
        let m = bytes.withUnsafeMutableBufferPointer { set.scan(UnsafeBufferPointer($0)) }
        return set.patterns.indices.filter { m.contains($0) }.map { set.patterns[$0] }
    }

    func testFindsEveryPatternAnywhereIncludingOverlapsAndEdges() {
        let set = PatternSet(["ab", "abc", "bc", "cd", "zz"])
        XCTAssertEqual(found(set, "abcd"), ["ab", "abc", "bc", "cd"])
        XCTAssertEqual(found(set, "xxab"), ["ab"])
        XCTAssertEqual(found(set, "abxx"), ["ab"])
        XCTAssertEqual(found(set, "ab"), ["ab"])
        XCTAssertEqual(found(set, "a"), [])
        XCTAssertEqual(found(set, ""), [])
        XCTAssertEqual(found(set, "zzz"), ["zz"])
    }

    func testPatternLongerThanTheRestOfTheTextDoesNotMatch() {
        let set = PatternSet(["abcdef"])
        XCTAssertEqual(found(set, "xxabcde"), [])
        XCTAssertEqual(found(set, "xxabcdef"), ["abcdef"])
    }

    func testBucketCollisionsStillCompareTheWholePattern() throws {
        // Pairs whose hashes collide modulo the bucket count land in one bucket.
        let a: (UInt8, UInt8) = (0x61, 0x61)
        var collision: String?
        outer: for b0 in UInt8(0x21)...UInt8(0x7E) {
            for b1 in UInt8(0x21)...UInt8(0x7E)
            where (b0, b1) != a && !(0x41...0x5A).contains(b0) && !(0x41...0x5A).contains(b1)
                && PatternSet.bucket(b0, b1) == PatternSet.bucket(a.0, a.1)
            {
                collision = String(decoding: [b0, b1, 0x78], as: UTF8.self)
                break outer
            }
        }
        let other = try XCTUnwrap(collision)
        let set = PatternSet(["aax", other])
        XCTAssertEqual(found(set, "aax"), ["aax"])
        XCTAssertEqual(found(set, other), [other])
        XCTAssertEqual(found(set, "aay"), [])
    }

    func testManyPatternsUseBothMatchWords() {
        let patterns = (0..<100).map { "p\($0)q" }
        let set = PatternSet(patterns)
        XCTAssertEqual(found(set, "p3q p99q p64q"), ["p3q", "p64q", "p99q"])
    }
}
