import Store
import XCTest

@testable import Resolver

/// The resolver's buckets shared by three nodes through `FleetSync` and an in-memory
/// fleet table, on a simulated clock (one step per millisecond, syncs every 100 ms at
/// different phases): a burst spread over the nodes is cut at the fleet limit, within
/// decision 0016's bound of (n - 1) x ceil(L / 2n) beyond what one bucket would admit.
final class FleetRateLimitTests: XCTestCase {
    private final class Node {
        let limiters: ResolverLimiters
        let sync: FleetSync
        let phase: Int64
        init(fleet: MemoryFleet, index: Int, limits: RateLimits, phase: Int64, clock: Locked<Int64>) {
            limiters = ResolverLimiters(limits, keys: RateLimitKeys(seed: fleet.seed), fleet: true)
            sync = FleetSync(limiters: limiters, counters: fleet.counters(node: index), clock: { clock.value })
            self.phase = phase
        }
    }

    /// What a burst admits: `demand(t, node)` is how many requests reach `node` in
    /// millisecond t. Returns the most the fleet was ever ahead of one single bucket
    /// given the same requests, and what the fleet admitted in all.
    private func burst(
        limit: Int, milliseconds: Int64, phases: [Int64] = [0, 37, 71], demand: (Int64, Int) -> Int
    ) throws -> (ahead: Int, admitted: Int) {
        let fleet = MemoryFleet()
        let clock = Locked<Int64>(1_000_000)
        let start = clock.value
        let limits = RateLimits(
            perApp: limit, perSourceAddress: 0, perAppInstance: 0, perHandoffToken: 0, failuresPerSourceAddress: 0)
        let nodes = phases.enumerated().map {
            Node(fleet: fleet, index: $0.offset, limits: limits, phase: $0.element, clock: clock)
        }
        // The nodes meet at start-up (the first exchange tells each how many they are).
        for n in nodes { try n.sync.syncOnce() }
        for n in nodes { try n.sync.syncOnce() }
        let single = RateLimiter(limit: limit, maxKeys: 100)
        let key = nodes[0].limiters.keys.key("biq_mapp_one")
        var admitted = 0
        var singleAdmitted = 0
        var ahead = 0
        for t in 0..<milliseconds {
            clock.value = start + t
            for n in nodes where t % 100 == n.phase { try n.sync.syncOnce() }
            for (i, n) in nodes.enumerated() {
                for _ in 0..<demand(t, i) {
                    if n.limiters.app.acquire(key, nowMillis: clock.value) == nil { admitted += 1 }
                    if single.acquire(key, nowMillis: clock.value) == nil { singleAdmitted += 1 }
                }
            }
            ahead = max(ahead, admitted - singleAdmitted)
        }
        return (ahead, admitted)
    }

    private func bound(_ limit: Int, nodes: Int = 3) -> Int { (nodes - 1) * ((limit + 2 * nodes - 1) / (2 * nodes)) }

    func testWithoutSharingThreeNodesWouldAdmitThreeTimesTheLimit() {
        // What issue 17 is about: three independent buckets.
        let nodes = (0..<3).map { _ in RateLimiter(limit: 60, maxKeys: 100) }
        var admitted = 0
        for i in 0..<600 where nodes[i % 3].acquire("app", nowMillis: 0) == nil { admitted += 1 }
        XCTAssertEqual(admitted, 180)
    }

    func testARoundRobinBurstIsCutAtTheFleetLimit() throws {
        for limit in [60, 30, 20, 10, 120, 3_000] {
            // Every node gets a request every millisecond: 3,000 requests a second.
            let r = try burst(limit: limit, milliseconds: 2_000) { _, _ in 1 }
            XCTAssertLessThanOrEqual(r.ahead, bound(limit), "limit \(limit)")
            XCTAssertGreaterThanOrEqual(r.admitted, limit, "limit \(limit): the fleet still admits its limit")
            XCTAssertLessThan(r.admitted, 2 * limit, "limit \(limit)")
        }
    }

    func testAnUnboundedBurstOnEveryNodeAtOnceStaysWithinTheBound() throws {
        for limit in [60, 30, 20, 10, 120, 3_000] {
            let r = try burst(limit: limit, milliseconds: 1_500) { _, _ in min(limit, 40) }
            XCTAssertLessThanOrEqual(r.ahead, bound(limit), "limit \(limit)")
        }
    }

    func testAKeySpentThroughOneNodeThenMetByTheOthersStaysWithinTheBound() throws {
        // The worst case: the others meet the key fresh, each with a sixth of a bucket
        // it does not know is spent, before their first sync tells them.
        for limit in [60, 30, 20, 10, 120, 3_000] {
            let r = try burst(limit: limit, milliseconds: 3_000) { t, node in
                node == 0 || t >= 1_000 ? min(limit, 40) : 0
            }
            XCTAssertLessThanOrEqual(r.ahead, bound(limit), "limit \(limit)")
        }
    }

    func testTrafficOnOneNodeReachesTheWholeLimitWithinASecondOrSo() throws {
        let r = try burst(limit: 3_000, milliseconds: 1_500) { t, node in node == 0 ? 10 : 0 }
        XCTAssertGreaterThanOrEqual(r.admitted, 3_000 * 9 / 10, "shares grow with every sync")
        XCTAssertLessThanOrEqual(r.ahead, 0, "and never beyond one bucket")
    }

    func testASyncPublishesOwnAdmissionsAndAFailedOneKeepsThemForTheNext() throws {
        let fleet = MemoryFleet()
        let clock = Locked<Int64>(0)
        let limits = RateLimits(
            perApp: 0, perSourceAddress: 0, perAppInstance: 30, perHandoffToken: 0, failuresPerSourceAddress: 0)
        let a = Node(fleet: fleet, index: 0, limits: limits, phase: 0, clock: clock)
        let key = a.limiters.keys.key("biq_mapp_one", "install_1")
        for _ in 0..<4 { XCTAssertNil(a.limiters.instance.acquire(key, nowMillis: 0)) }
        fleet.failing = true
        XCTAssertThrowsError(try a.sync.syncOnce())
        XCTAssertEqual(a.limiters.instance.bucket(key)?.unpublished, 4)
        XCTAssertNil(a.limiters.instance.acquire(key, nowMillis: 0))
        fleet.failing = false
        try a.sync.syncOnce()
        XCTAssertEqual(fleet.published(bucket: 3, key: key, node: 0), 5)
        XCTAssertEqual(a.limiters.instance.bucket(key)?.unpublished, 0)
        try a.sync.syncOnce()
        XCTAssertEqual(fleet.published(bucket: 3, key: key, node: 0), 5, "an untouched key is not published again")
    }

    func testWhenTheDatabaseIsAwayTheNodesFallBackToTheirOwnBuckets() throws {
        let fleet = MemoryFleet()
        let clock = Locked<Int64>(0)
        let limits = RateLimits(
            perApp: 30, perSourceAddress: 0, perAppInstance: 0, perHandoffToken: 0, failuresPerSourceAddress: 0)
        let a = Node(fleet: fleet, index: 0, limits: limits, phase: 0, clock: clock)
        let b = Node(fleet: fleet, index: 1, limits: limits, phase: 0, clock: clock)
        try a.sync.syncOnce()
        try b.sync.syncOnce()
        try a.sync.syncOnce()
        XCTAssertEqual(a.limiters.app.nodes.load(ordering: .relaxed), 2)
        fleet.failing = true
        clock.value = 500
        XCTAssertThrowsError(try a.sync.syncOnce())
        XCTAssertEqual(a.limiters.app.nodes.load(ordering: .relaxed), 2, "a short failure changes nothing")
        clock.value = 1_600
        XCTAssertThrowsError(try a.sync.syncOnce())
        XCTAssertEqual(a.limiters.app.nodes.load(ordering: .relaxed), 1, "fail open: each node its own bucket")
    }

    func testTheSyncCountsExchangesFailuresItsAgeAndWhatTheNodeAdmittedAlone() throws {
        let fleet = MemoryFleet()
        let clock = Locked<Int64>(10_000)
        let limits = RateLimits(
            perApp: 1_000, perSourceAddress: 1_000, perAppInstance: 0, perHandoffToken: 0,
            failuresPerSourceAddress: 0, trackClickPerAddress: 0, trackClickPerKey: 0, conversionsPerKey: 0)
        let a = Node(fleet: fleet, index: 0, limits: limits, phase: 0, clock: clock)
        let b = Node(fleet: fleet, index: 1, limits: limits, phase: 0, clock: clock)
        let app = a.limiters.keys.key("biq_mapp_one")
        func admit(_ n: Int) {
            for _ in 0..<n { XCTAssertNil(a.limiters.app.acquire(app, nowMillis: clock.value)) }
        }
        clock.value += 300
        XCTAssertEqual(a.sync.statistics().millisecondsSinceSync, 300, "since the start, before any sync")
        try a.sync.syncOnce()
        try b.sync.syncOnce()
        try a.sync.syncOnce()
        admit(2)
        var s = a.sync.statistics()
        XCTAssertEqual(s.syncs, 2)
        XCTAssertEqual(s.failures, 0)
        XCTAssertEqual(s.millisecondsSinceSync, 0)
        XCTAssertEqual(s.nodes, 2)
        XCTAssertEqual(s.unsyncedAdmissions, [.init(bucket: "app", count: 0), .init(bucket: "address", count: 0)])

        // Failing for less than a second: the shares still bound what the node admits.
        fleet.failing = true
        clock.value += 500
        XCTAssertThrowsError(try a.sync.syncOnce())
        admit(1)
        s = a.sync.statistics()
        XCTAssertEqual(s.failures, 1)
        XCTAssertEqual(s.millisecondsSinceSync, 500)
        XCTAssertEqual(s.nodes, 2)
        XCTAssertEqual(s.unsyncedAdmissions.first?.count, 0)

        // Past a second, the node decides alone: what it admits then is counted.
        clock.value += 600
        XCTAssertThrowsError(try a.sync.syncOnce())
        admit(3)
        XCTAssertNil(a.limiters.address.acquire(a.limiters.keys.key("192.0.2.1"), nowMillis: clock.value))
        s = a.sync.statistics()
        XCTAssertEqual(s.failures, 2)
        XCTAssertEqual(s.millisecondsSinceSync, 1_100)
        XCTAssertEqual(s.nodes, 1)
        XCTAssertEqual(s.unsyncedAdmissions, [.init(bucket: "app", count: 3), .init(bucket: "address", count: 1)])

        // Back: counted no more, and the counts stay (counters).
        fleet.failing = false
        clock.value += 100
        try a.sync.syncOnce()
        admit(2)
        s = a.sync.statistics()
        XCTAssertEqual(s.syncs, 3)
        XCTAssertEqual(s.failures, 2)
        XCTAssertEqual(s.millisecondsSinceSync, 0)
        XCTAssertEqual(s.unsyncedAdmissions, [.init(bucket: "app", count: 3), .init(bucket: "address", count: 1)])
    }

    func testStoppingTellsTheFleetThisNodeLeaves() throws {
        let fleet = MemoryFleet()
        let clock = Locked<Int64>(0)
        let a = Node(fleet: fleet, index: 0, limits: RateLimits(), phase: 0, clock: clock)
        let b = Node(fleet: fleet, index: 1, limits: RateLimits(), phase: 0, clock: clock)
        try a.sync.syncOnce()
        try b.sync.syncOnce()
        a.sync.start()
        a.sync.stop()
        try b.sync.syncOnce()
        XCTAssertEqual(b.limiters.app.nodes.load(ordering: .relaxed), 1)
    }
}
