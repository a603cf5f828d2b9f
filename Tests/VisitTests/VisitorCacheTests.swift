import XCTest

@testable import Visit

final class VisitorCacheTests: XCTestCase {
    func testCachedAnswersAreTheClassifiersOnFirstAndLaterVisits() {
        var cache = VisitorCache()
        for round in 0..<3 {
            for entry in UserAgentCorpus.entries {
                XCTAssertEqual(
                    cache.classify(method: "GET", userAgent: entry.userAgent),
                    VisitorClassifier.classify(method: "GET", userAgent: entry.userAgent),
                    "\(entry.label), round \(round)")
            }
        }
        XCTAssertEqual(cache.count, Set(UserAgentCorpus.entries.map(\.userAgent)).count)
    }

    func testHeadAndMissingUserAgentsAreClassifiedNotCached() {
        var cache = VisitorCache()
        let ua = UserAgentCorpus.iOS[0].userAgent
        XCTAssertEqual(cache.classify(method: "HEAD", userAgent: ua), Visitor(kind: .head))
        XCTAssertEqual(cache.classify(method: "GET", userAgent: nil), Visitor(kind: .bot("empty")))
        XCTAssertEqual(cache.count, 0)
        // The same UA by GET after a HEAD is not answered from the HEAD.
        XCTAssertEqual(cache.classify(method: "GET", userAgent: ua).kind, UserAgentCorpus.iOS[0].kind)
    }

    func testLongUserAgentsAreNotKept() {
        var cache = VisitorCache()
        let long = UserAgentCorpus.android[0].userAgent + String(repeating: " x", count: VisitorCache.maxKeyBytes)
        XCTAssertEqual(cache.classify(method: "GET", userAgent: long), VisitorClassifier.classify(userAgent: long))
        XCTAssertEqual(cache.count, 0)
    }

    func testTheCacheStartsOverAtCapacity() {
        var cache = VisitorCache(capacity: 4)
        for i in 0..<10 {
            let ua = "Mozilla/5.0 (X11; Linux x86_64; rv:\(i).0) Gecko/20100101 Firefox/\(i).0"
            XCTAssertEqual(cache.classify(method: "GET", userAgent: ua), VisitorClassifier.classify(userAgent: ua))
            XCTAssertLessThanOrEqual(cache.count, 4)
        }
    }
}
