import XCTest

@testable import Resolver

/// The per-key rules of decision 0016, without threads or a database: how the other
/// nodes' admissions enter a node's bucket, how the bucket refills, and the shares.
final class FleetBucketTests: XCTestCase {
    /// 30 per minute: one every 2 s, a burst of 30; syncs every 100 ms.
    private let rules = FleetBucket.Rules(limit: 30)
    private let second: Int64 = 1_000_000

    func testAloneItIsTheSingleNodeGCRA() {
        var b = FleetBucket(now: 0)
        for _ in 0..<30 { XCTAssertNil(b.acquire(now: 0, nodes: 1, rules)) }
        XCTAssertEqual(b.acquire(now: 0, nodes: 1, rules), 2 * second)
        XCTAssertEqual(b.acquire(now: 1_500_000, nodes: 1, rules), 500_000)
        XCTAssertNil(b.acquire(now: 2 * second, nodes: 1, rules))
        XCTAssertEqual(b.unpublished, 31, "what the next sync publishes")
        XCTAssertEqual(b.ownTAT, b.tat, "alone, its own bucket is the fleet's")
    }

    func testTheOthersAdmissionsCountOnceASyncReportsThem() {
        var b = FleetBucket(now: 0)
        for _ in 0..<10 { XCTAssertNil(b.acquire(now: 0, nodes: 1, rules)) }
        // First sync of the key: the others had published 4 and left 8 s of backlog.
        b.apply(FleetOthersView(count: 4, backlog: 8 * second), published: 10, now: 0, nodes: 1, rules)
        XCTAssertEqual(b.unpublished, 0)
        XCTAssertEqual(b.tat, 20 * second + 8 * second)
        // Later they admitted 10 more: 10 intervals more in this node's bucket.
        b.apply(FleetOthersView(count: 14, backlog: 0), published: 0, now: 0, nodes: 1, rules)
        XCTAssertEqual(b.tat, 48 * second)
        XCTAssertEqual(b.available(now: 0, rules), 6, "30 - 10 own - 4 - 10 others' (8 s of backlog is 4)")
        for _ in 0..<6 { XCTAssertNil(b.acquire(now: 0, nodes: 1, rules)) }
        XCTAssertEqual(b.acquire(now: 0, nodes: 1, rules), 2 * second, "Retry-After is the fleet bucket's wait")
        XCTAssertEqual(b.ownTAT, 32 * second, "its own part alone: 16 admissions")
    }

    func testAKeyMetForTheFirstTimeStartsAsFullAsTheOthersLeftIt() {
        var b = FleetBucket(now: 100 * second)
        b.apply(FleetOthersView(count: 500, backlog: 40 * second), published: 0, now: 100 * second, nodes: 1, rules)
        // The others' running total is history; only their backlog weighs.
        XCTAssertEqual(b.available(now: 100 * second, rules), 10)
        XCTAssertEqual(b.othersSeen, 500)
    }

    func testTheBucketRefillsAndASmallerTotalOfTheOthersCountsNothing() {
        var b = FleetBucket(now: 0)
        b.apply(FleetOthersView(count: 30, backlog: 58 * second), published: 0, now: 0, nodes: 1, rules)
        XCTAssertEqual(b.available(now: 0, rules), 1)
        XCTAssertEqual(b.available(now: 30 * second, rules), 16, "one more every 2 s")
        XCTAssertEqual(b.available(now: 60 * second, rules), 30, "a minute later it is empty again")
        XCTAssertTrue(b.isIdle(now: 60 * second), "and can be forgotten")
        // Rows expired (or a node left): the total shrinks, which is no admission.
        b.apply(FleetOthersView(count: 12, backlog: 0), published: 0, now: 60 * second, nodes: 1, rules)
        XCTAssertEqual(b.available(now: 60 * second, rules), 30)
        XCTAssertEqual(b.othersSeen, 12, "and the next growth counts from there")
        b.apply(FleetOthersView(count: 15, backlog: 0), published: 0, now: 60 * second, nodes: 1, rules)
        XCTAssertEqual(b.available(now: 60 * second, rules), 27)
    }

    func testAnUnpublishedOrQueuedKeyIsNotForgotten() {
        var b = FleetBucket(now: 0)
        XCTAssertNil(b.acquire(now: 0, nodes: 1, rules))
        XCTAssertFalse(b.isIdle(now: 10 * second), "its admission is not published yet")
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 1, now: 10 * second, nodes: 1, rules)
        XCTAssertTrue(b.isIdle(now: 10 * second))
        b.queued = true
        XCTAssertFalse(b.isIdle(now: 10 * second))
    }

    func testWithThreeNodesAKeyMetForTheFirstTimeGetsOneSixthOfTheBucket() {
        var b = FleetBucket(now: 0)
        for _ in 0..<5 { XCTAssertNil(b.acquire(now: 0, nodes: 3, rules)) }
        XCTAssertEqual(b.acquire(now: 0, nodes: 3, rules), rules.shareRetry, "the share is spent, not the bucket")
        XCTAssertEqual(ResolverLimiters.retryAfterSeconds(rules.shareRetry), 1)
        XCTAssertEqual(b.available(now: 0, rules), 25)
        XCTAssertEqual(b.unpublished, 5, "a refusal takes nothing")
    }

    func testASyncRenewsTheShareAsAFifthOfWhatIsLeftRoundedUp() {
        var b = FleetBucket(now: 0)
        for _ in 0..<5 { XCTAssertNil(b.acquire(now: 0, nodes: 3, rules)) }
        // The two others took 5 each meanwhile: 15 left, a share of 3.
        b.apply(FleetOthersView(count: 10, backlog: 20 * second), published: 5, now: 100_000, nodes: 3, rules)
        XCTAssertEqual(b.available(now: 100_000, rules), 15)
        XCTAssertEqual(b.share, 3)
        for _ in 0..<3 { XCTAssertNil(b.acquire(now: 100_000, nodes: 3, rules)) }
        XCTAssertEqual(b.acquire(now: 100_000, nodes: 3, rules), rules.shareRetry)
        // Nearly spent: a bucket holding anything still lets each node through once.
        b.apply(FleetOthersView(count: 21, backlog: 0), published: 3, now: 200_000, nodes: 3, rules)
        XCTAssertEqual(b.available(now: 200_000, rules), 1)
        XCTAssertEqual(b.share, 1)
        XCTAssertNil(b.acquire(now: 200_000, nodes: 3, rules))
        XCTAssertEqual(b.acquire(now: 200_000, nodes: 3, rules), 60 * second - 200_000 - rules.tolerance)
    }

    func testAShareLeftOutOfTwoSyncsIsReplacedByAFreshOneFromWhatTheNodeKnows() {
        let rules = FleetBucket.Rules(limit: 60)
        var b = FleetBucket(now: 0)
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 0, now: 0, nodes: 3, generation: 1, rules)
        XCTAssertEqual(b.share, 10, "the local share, ceil(60 / 6), below ceil(60 / 5)")
        XCTAssertNil(b.acquire(now: 0, nodes: 3, generation: 1, rules))
        XCTAssertNil(b.acquire(now: 0, nodes: 3, generation: 2, rules), "one sync later it still holds")
        XCTAssertEqual(b.share, 8)
        // The two are published; then the key rests, left out of two syncs: a sixth of
        // what the node knows is left.
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 2, now: 0, nodes: 3, generation: 2, rules)
        XCTAssertNil(b.acquire(now: 300_000, nodes: 3, generation: 4, rules))
        XCTAssertEqual(b.share, 9, "ceil(58 / 6) - 1")
        XCTAssertEqual(b.shareGeneration, 4)
    }

    func testWhatTheOthersCannotKnowOfYetNeverExceedsTheLocalShare() {
        // Issue 33 item 14: a sync that collected before the node's first five admissions
        // comes back without them (published 0): the others have not seen those five, and
        // a fifth of the 25 the node believes left would let it admit five more unseen.
        var b = FleetBucket(now: 0)
        for _ in 0..<5 { XCTAssertNil(b.acquire(now: 0, nodes: 3, generation: 0, rules)) }
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 0, now: 100_000, nodes: 3, generation: 1, rules)
        XCTAssertEqual(b.share, 0, "ceil(30 / 6) = 5 unseen already")
        XCTAssertEqual(b.acquire(now: 100_000, nodes: 3, generation: 1, rules), rules.shareRetry)
        // Its next sync publishes them: a fifth of what is left again.
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 5, now: 200_000, nodes: 3, generation: 2, rules)
        XCTAssertEqual(b.share, 5)
        // Syncs that come back late while the node admits: never more than 5 unseen.
        for _ in 0..<3 { XCTAssertNil(b.acquire(now: 200_000, nodes: 3, generation: 2, rules)) }
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 0, now: 300_000, nodes: 3, generation: 3, rules)
        XCTAssertEqual(b.share, 2, "3 unseen: 2 more at most")
        XCTAssertEqual(b.unpublished, 3)
        // Alone (one node), nothing is hidden from anyone: the whole bucket.
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 0, now: 300_000, nodes: 1, generation: 4, rules)
        for _ in 0..<22 { XCTAssertNil(b.acquire(now: 300_000, nodes: 1, generation: 4, rules)) }
        XCTAssertNotNil(b.acquire(now: 300_000, nodes: 1, generation: 4, rules))
    }

    func testLosingTheOtherNodesEndsTheShares() {
        var b = FleetBucket(now: 0)
        for _ in 0..<5 { XCTAssertNil(b.acquire(now: 0, nodes: 3, rules)) }
        XCTAssertNotNil(b.acquire(now: 0, nodes: 3, rules))
        XCTAssertNil(b.acquire(now: 0, nodes: 1, rules), "alone, the whole bucket")
        b.apply(FleetOthersView(count: 0, backlog: 0), published: 6, now: 0, nodes: 1, rules)
        for _ in 0..<24 { XCTAssertNil(b.acquire(now: 0, nodes: 1, rules)) }
        XCTAssertNotNil(b.acquire(now: 0, nodes: 1, rules))
    }
}
