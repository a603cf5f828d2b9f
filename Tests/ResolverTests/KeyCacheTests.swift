import Dispatch
import Model
import Store
import Synchronization
import XCTest

@testable import Resolver

final class KeyCacheTests: XCTestCase {
    private let record = PublishableKeyRecord(id: "pk", appId: "app", keyHash: [1], hint: "abcd", createdAt: 0)

    /// A store read that counts how often it ran and answers `answer`.
    private final class CountingFetch {
        var reads = 0
        let answer: PublishableKeyRecord?
        init(_ answer: PublishableKeyRecord?) { self.answer = answer }

        func callAsFunction() throws(StoreError) -> PublishableKeyRecord? {
            reads += 1
            return answer
        }
    }

    private func lookUp(
        _ cache: KeyCache, _ key: String = "k1", loop: Int = 0, now: Int64, version: UInt64 = 0, _ fetch: CountingFetch
    ) throws -> PublishableKeyRecord? {
        try cache.record(key: key, loop: loop, now: now, version: version) { () throws(StoreError) in try fetch() }
    }

    func testAKeyIsReadOncePerLifetimeThenReadAgain() throws {
        let cache = KeyCache(loops: 2, ttlMilliseconds: 1_000)
        let fetch = CountingFetch(record)
        XCTAssertEqual(try lookUp(cache, now: 10_000, fetch), record)
        XCTAssertEqual(try lookUp(cache, now: 10_999, fetch), record)
        XCTAssertEqual(fetch.reads, 1)
        _ = try lookUp(cache, now: 11_000, fetch)
        XCTAssertEqual(fetch.reads, 2, "an entry a full lifetime old is read again (a revocation shows)")
        _ = try lookUp(cache, loop: 1, now: 11_000, fetch)
        XCTAssertEqual(fetch.reads, 3, "each loop has its own cache")
    }

    func testUnknownKeysAreCachedButTheCacheStaysBounded() throws {
        let cache = KeyCache(loops: 1, ttlMilliseconds: 1_000, capacity: 3)
        let fetch = CountingFetch(nil)
        for i in 0..<3 { XCTAssertNil(try lookUp(cache, "k\(i)", now: 0, fetch)) }
        XCTAssertNil(try lookUp(cache, "k0", now: 1, fetch))
        XCTAssertEqual(fetch.reads, 3)
        _ = try lookUp(cache, "k9", now: 1, fetch)  // full: emptied, then k9 kept
        _ = try lookUp(cache, "k0", now: 2, fetch)
        XCTAssertEqual(fetch.reads, 5)
    }

    func testAClockGoingBackwardsDoesNotKeepAStaleEntry() throws {
        let cache = KeyCache(loops: 1, ttlMilliseconds: 1_000)
        let fetch = CountingFetch(record)
        _ = try lookUp(cache, now: 5_000, fetch)
        _ = try lookUp(cache, now: 4_000, fetch)
        XCTAssertEqual(fetch.reads, 2)
    }

    func testANewKeyVersionDropsTheLoopsEntriesAtOnce() throws {
        let cache = KeyCache(loops: 2, ttlMilliseconds: 60_000)
        let fetch = CountingFetch(record)
        _ = try lookUp(cache, now: 1_000, version: 7, fetch)
        _ = try lookUp(cache, now: 1_001, version: 7, fetch)
        XCTAssertEqual(fetch.reads, 1)
        _ = try lookUp(cache, now: 1_002, version: 8, fetch)
        XCTAssertEqual(fetch.reads, 2, "a key changed somewhere: read again, well within the lifetime")
        _ = try lookUp(cache, now: 1_003, version: 8, fetch)
        XCTAssertEqual(fetch.reads, 2)
    }

    /// Each loop's thread uses its own entries while the other loop grows, clears and
    /// refills its own: every answer is the record of the key asked for.
    func testLoopsUsedFromTheirOwnThreadsAtOnceKeepTheirOwnEntries() {
        let cache = KeyCache(loops: 2, ttlMilliseconds: 60_000, capacity: 500)
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { loop in
            for n in 0..<20_000 {
                let key = "k\(loop)-\(n % 1_500)"
                let expected = PublishableKeyRecord(id: key, appId: "app", keyHash: [], hint: "", createdAt: 0)
                let got = try? cache.record(key: key, loop: loop, now: 1_000, version: 0) {
                    () throws(StoreError) in expected
                }
                if got?.id != key { wrong.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(wrong.withLock { $0 }, 0)
    }
}
