import Core
import Model
import XCTest

@testable import Store

final class CandidateIndexTests: XCTestCase {
    private let app = "biq_mapp_A"
    private let domain = "go.example.com"

    /// The index keeps rowids; the tests name clicks, each name its own rowid.
    private var rowids: [String: Int64] = [:]
    private var names: [Int64: String] = [:]

    private func ids(_ index: CandidateIndex, _ hash: [UInt8], since: Int64 = 0, app: String? = nil) -> [String] {
        index.candidates(app: app ?? self.app, domain: domain, sourceHash: hash, since: since).map { names[$0]! }
    }

    private func insert(_ index: inout CandidateIndex, _ hash: [UInt8], _ id: String, _ at: Int64) {
        let rowid = rowids[id] ?? Int64(rowids.count + 1)
        rowids[id] = rowid
        names[rowid] = id
        index.insert(app: app, domain: domain, sourceHash: hash, click: rowid, at: at)
    }

    func testCandidatesAreByKeyNewestFirstAndFromSince() {
        var index = CandidateIndex(capacity: 10)
        insert(&index, [1], "c1", 100)
        insert(&index, [2], "c2", 110)
        insert(&index, [1], "c3", 120)
        XCTAssertEqual(ids(index, [1]), ["c3", "c1"])
        XCTAssertEqual(ids(index, [1], since: 101), ["c3"])
        XCTAssertEqual(ids(index, [2]), ["c2"])
        XCTAssertEqual(ids(index, [1], app: "biq_mapp_B"), [])
        XCTAssertEqual(index.candidates(app: app, domain: "other.example.com", sourceHash: [1], since: 0), [])
        XCTAssertEqual(index.count, 3)
    }

    func testEveryHashHasItsOwnCandidates() {
        // Folded into a fingerprint: a shorter hash, a trailing zero, one bit apart, longer than 32 bytes.
        var index = CandidateIndex(capacity: 10)
        let full = [UInt8](repeating: 0xAB, count: 32)
        var oneBit = full
        oneBit[31] ^= 1
        let long = [UInt8](repeating: 7, count: 40)
        var longOther = long
        longOther[39] = 8
        for (i, hash) in [full, oneBit, [1], [1, 0], long, longOther].enumerated() {
            insert(&index, hash, "c\(i)", Int64(i))
        }
        XCTAssertEqual(ids(index, full), ["c0"])
        XCTAssertEqual(ids(index, oneBit), ["c1"])
        XCTAssertEqual(ids(index, [1]), ["c2"])
        XCTAssertEqual(ids(index, [1, 0]), ["c3"])
        XCTAssertEqual(ids(index, long), ["c4"])
        XCTAssertEqual(ids(index, longOther), ["c5"])
    }

    func testEntriesAgeOutPastTheHorizon() {
        var index = CandidateIndex(capacity: 10, horizonMilliseconds: 1_000)
        insert(&index, [1], "c1", 100)
        insert(&index, [1], "c2", 600)
        index.age(now: 1_100)  // cutoff 100: nothing is older
        XCTAssertEqual(ids(index, [1]), ["c2", "c1"])
        index.age(now: 1_101)
        XCTAssertEqual(ids(index, [1]), ["c2"])
        index.age(now: 10_000)
        XCTAssertEqual(ids(index, [1]), [])
        XCTAssertEqual(index.count, 0)
        XCTAssertEqual(index.droppedAtCapacity, 0, "ageing out is no drop at capacity")
    }

    func testPastTheCapacityTheOldestGoFirst() {
        var index = CandidateIndex(capacity: 3)
        for i in 0..<5 { insert(&index, i % 2 == 0 ? [1] : [2], "c\(i)", Int64(i)) }
        XCTAssertEqual(index.count, 3)
        XCTAssertEqual(index.droppedAtCapacity, 2)
        XCTAssertEqual(ids(index, [1]), ["c4", "c2"])
        XCTAssertEqual(ids(index, [2]), ["c3"])
    }

    func testZeroCapacityHoldsNothing() {
        var index = CandidateIndex(capacity: 0)
        insert(&index, [1], "c1", 1)
        XCTAssertEqual(index.count, 0)
        XCTAssertEqual(ids(index, [1]), [])
    }

    func testAnEntryWrittenTwiceIsDroppedTwiceAndTheCountStaysTrue() {
        // An optimistic pass that runs a job again writes its click again.
        var index = CandidateIndex(capacity: 10, horizonMilliseconds: 10)
        insert(&index, [1], "c1", 100)
        insert(&index, [1], "c1", 100)
        XCTAssertEqual(index.count, 2)
        XCTAssertEqual(ids(index, [1]), ["c1", "c1"])  // the transaction reads each id once
        index.age(now: 1_000)
        XCTAssertEqual(index.count, 0)
        XCTAssertEqual(ids(index, [1]), [])
    }

    func testTheStorageIsCompactedWithoutLosingLiveEntries() {
        var index = CandidateIndex(capacity: 100_000, horizonMilliseconds: 1_000)
        for i in 0..<5_000 { insert(&index, i % 7 == 0 ? [7] : [1], "c\(i)", Int64(i)) }
        index.age(now: 4_500)  // keeps at >= 3,500
        XCTAssertEqual(index.count, 1_500)
        insert(&index, [1], "late", 5_000)
        XCTAssertEqual(ids(index, [1], since: 4_998), ["late", "c4999"])
        XCTAssertEqual(ids(index, [7], since: 4_990), ["c4998", "c4991"])
        index.age(now: 6_000)  // cutoff 5,000
        XCTAssertEqual(ids(index, [1]), ["late"])
        XCTAssertEqual(ids(index, [7]), [])
        XCTAssertEqual(index.count, 1)
    }
}
