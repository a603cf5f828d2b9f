import XCTest

@testable import Store

final class CandidateIndexTests: XCTestCase {
    private let a = CandidateIndex.Key(appId: "biq_mapp_A", domain: "go.example.com", sourceHash: [1])
    private let b = CandidateIndex.Key(appId: "biq_mapp_A", domain: "go.example.com", sourceHash: [2])

    func testCandidatesAreByKeyNewestFirstAndFromSince() {
        var index = CandidateIndex(capacity: 10)
        index.insert(a, .init(clickId: "c1", at: 100))
        index.insert(b, .init(clickId: "c2", at: 110))
        index.insert(a, .init(clickId: "c3", at: 120))
        XCTAssertEqual(index.candidates(a, since: 0), ["c3", "c1"])
        XCTAssertEqual(index.candidates(a, since: 101), ["c3"])
        XCTAssertEqual(index.candidates(b, since: 0), ["c2"])
        XCTAssertEqual(
            index.candidates(.init(appId: "biq_mapp_B", domain: "go.example.com", sourceHash: [1]), since: 0), [])
        XCTAssertEqual(index.count, 3)
    }

    func testEntriesAgeOutPastTheHorizon() {
        var index = CandidateIndex(capacity: 10, horizonMilliseconds: 1_000)
        index.insert(a, .init(clickId: "c1", at: 100))
        index.insert(a, .init(clickId: "c2", at: 600))
        index.age(now: 1_100)  // cutoff 100: nothing is older
        XCTAssertEqual(index.candidates(a, since: 0), ["c2", "c1"])
        index.age(now: 1_101)
        XCTAssertEqual(index.candidates(a, since: 0), ["c2"])
        index.age(now: 10_000)
        XCTAssertEqual(index.candidates(a, since: 0), [])
        XCTAssertEqual(index.count, 0)
    }

    func testPastTheCapacityTheOldestGoFirst() {
        var index = CandidateIndex(capacity: 3)
        for i in 0..<5 { index.insert(i % 2 == 0 ? a : b, .init(clickId: "c\(i)", at: Int64(i))) }
        XCTAssertEqual(index.count, 3)
        XCTAssertEqual(index.candidates(a, since: 0), ["c4", "c2"])
        XCTAssertEqual(index.candidates(b, since: 0), ["c3"])
    }

    func testZeroCapacityHoldsNothing() {
        var index = CandidateIndex(capacity: 0)
        index.insert(a, .init(clickId: "c1", at: 1))
        XCTAssertEqual(index.count, 0)
        XCTAssertEqual(index.candidates(a, since: 0), [])
    }

    func testAnEntryWrittenTwiceIsDroppedTwiceAndTheCountStaysTrue() {
        // An optimistic pass that runs a job again writes its click again.
        var index = CandidateIndex(capacity: 10, horizonMilliseconds: 10)
        index.insert(a, .init(clickId: "c1", at: 100))
        index.insert(a, .init(clickId: "c1", at: 100))
        XCTAssertEqual(index.count, 2)
        index.age(now: 1_000)
        XCTAssertEqual(index.count, 0)
        XCTAssertEqual(index.candidates(a, since: 0), [])
    }

    func testTheQueueIsCompactedWithoutLosingLiveEntries() {
        var index = CandidateIndex(capacity: 100_000, horizonMilliseconds: 1_000)
        for i in 0..<5_000 { index.insert(a, .init(clickId: "c\(i)", at: Int64(i))) }
        index.age(now: 4_500)  // keeps at >= 3,500
        XCTAssertEqual(index.count, 1_500)
        index.insert(a, .init(clickId: "late", at: 5_000))
        XCTAssertEqual(index.candidates(a, since: 4_999), ["late", "c4999"])
        index.age(now: 6_000)  // cutoff 5,000
        XCTAssertEqual(index.candidates(a, since: 0), ["late"])
        XCTAssertEqual(index.count, 1)
    }
}
