import Store
import XCTest

@testable import Resolver

final class KeyCacheTests: XCTestCase {
    private let record = PublishableKeyRecord(id: "pk", appId: "app", keyHash: [1], hint: "abcd", createdAt: 0)

    func testAKeyIsReadOncePerLifetimeThenReadAgain() throws {
        let cache = KeyCache(loops: 2, ttlMilliseconds: 1_000)
        var reads = 0
        let fetch = { () throws(StoreError) -> PublishableKeyRecord? in
            reads += 1
            return self.record
        }
        XCTAssertEqual(try cache.record(key: "k1", loop: 0, now: 10_000, version: 0, fetch: fetch), record)
        XCTAssertEqual(try cache.record(key: "k1", loop: 0, now: 10_999, version: 0, fetch: fetch), record)
        XCTAssertEqual(reads, 1)
        _ = try cache.record(key: "k1", loop: 0, now: 11_000, version: 0, fetch: fetch)
        XCTAssertEqual(reads, 2, "an entry a full lifetime old is read again (a revocation shows)")
        _ = try cache.record(key: "k1", loop: 1, now: 11_000, version: 0, fetch: fetch)
        XCTAssertEqual(reads, 3, "each loop has its own cache")
    }

    func testUnknownKeysAreCachedButTheCacheStaysBounded() throws {
        let cache = KeyCache(loops: 1, ttlMilliseconds: 1_000, capacity: 3)
        var reads = 0
        let fetch = { () throws(StoreError) -> PublishableKeyRecord? in
            reads += 1
            return nil
        }
        for i in 0..<3 { XCTAssertNil(try cache.record(key: "k\(i)", loop: 0, now: 0, version: 0, fetch: fetch)) }
        XCTAssertNil(try cache.record(key: "k0", loop: 0, now: 1, version: 0, fetch: fetch))
        XCTAssertEqual(reads, 3)
        _ = try cache.record(key: "k9", loop: 0, now: 1, version: 0, fetch: fetch)  // full: emptied, then k9 kept
        _ = try cache.record(key: "k0", loop: 0, now: 2, version: 0, fetch: fetch)
        XCTAssertEqual(reads, 5)
    }

    func testAClockGoingBackwardsDoesNotKeepAStaleEntry() throws {
        let cache = KeyCache(loops: 1, ttlMilliseconds: 1_000)
        var reads = 0
        let fetch = { () throws(StoreError) -> PublishableKeyRecord? in
            reads += 1
            return self.record
        }
        _ = try cache.record(key: "k1", loop: 0, now: 5_000, version: 0, fetch: fetch)
        _ = try cache.record(key: "k1", loop: 0, now: 4_000, version: 0, fetch: fetch)
        XCTAssertEqual(reads, 2)
    }

    func testANewKeyVersionDropsTheLoopsEntriesAtOnce() throws {
        let cache = KeyCache(loops: 2, ttlMilliseconds: 60_000)
        var reads = 0
        let fetch = { () throws(StoreError) -> PublishableKeyRecord? in
            reads += 1
            return self.record
        }
        _ = try cache.record(key: "k1", loop: 0, now: 1_000, version: 7, fetch: fetch)
        _ = try cache.record(key: "k1", loop: 0, now: 1_001, version: 7, fetch: fetch)
        XCTAssertEqual(reads, 1)
        _ = try cache.record(key: "k1", loop: 0, now: 1_002, version: 8, fetch: fetch)
        XCTAssertEqual(reads, 2, "a key changed somewhere: read again, well within the lifetime")
        _ = try cache.record(key: "k1", loop: 0, now: 1_003, version: 8, fetch: fetch)
        XCTAssertEqual(reads, 2)
    }
}
