import Store
import XCTest

@testable import Resolver

/// Decision 0016's bound, (n - 1) x ceil(L / 2n) beyond one bucket, when the syncs come
/// late: a busy machine that starves the sync threads, a database slow to answer. Three
/// nodes on a simulated clock (1 ms steps) share one key of the instance bucket through a
/// table kept as `PGFleetCounters` keeps it (running totals, each node's mark rewritten
/// once `markMilliseconds` old, live while younger than `liveMilliseconds`). Each sync
/// reaches the table a while after it collected and applies the answer a while later;
/// twelve clients send a burst round-robin over the nodes, 30 to 300 ms a request, as the
/// black-box test does.
final class FleetRateLimitLateSyncTests: XCTestCase {
    /// How the syncs are late.
    struct Lateness {
        /// Most milliseconds a sync waits beyond its 100 ms, and how often (percent).
        var starved: Int64 = 0
        var percent: Int64 = 0
        /// Most milliseconds each way between the node and the table.
        var oneWay: Int64 = 1
        /// Every trip takes exactly `oneWay` (a slow database) rather than up to it.
        var fixedTrip = false
    }

    /// A seeded generator: each case is the same run every time.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private struct Table {
        var counts: [Int: Int64] = [:]
        var ownTAT: [Int: Int64] = [:]
        var marks: [Int: Int64] = [:]

        /// One exchange at `now` (ms): publishes `node`'s admissions and returns the
        /// others' view and the live nodes, as `PGFleetCounters.exchangeSQL` does.
        mutating func exchange(node: Int, _ published: [RateLimiter.Published], now: Int64)
            -> (nodes: Int, others: [FleetOthersView])
        {
            if let mark = marks[node], mark > now - PGFleetCounters.markMilliseconds {
            } else {
                marks[node] = now
            }
            let others = published.map { p -> FleetOthersView in
                var view = FleetOthersView(count: 0, backlog: 0)
                for (n, count) in counts where n != node {
                    view.count += count
                    view.backlog += max(0, (ownTAT[n] ?? 0) - now * 1000)
                }
                counts[node, default: 0] += p.added
                ownTAT[node] = p.ownTAT
                return view
            }
            let live = marks.filter { $0.key != node && $0.value > now - PGFleetCounters.liveMilliseconds }.count
            return (1 + live, others)
        }
    }

    private struct Sync {
        var next: Int64
        var reachesTable: Int64? = nil
        var published: [RateLimiter.Published] = []
        var answer: (at: Int64, nodes: Int, others: [FleetOthersView])? = nil
    }

    /// The most the fleet was ever ahead of one bucket given the same requests, and what
    /// it admitted in all.
    private func burst(limit: Int, seed: UInt64, _ late: Lateness) -> (ahead: Int, admitted: Int) {
        var random = SplitMix64(seed: seed)
        func upTo(_ most: Int64) -> Int64 { most <= 0 ? 0 : Int64.random(in: 0...most, using: &random) }
        func trip() -> Int64 { late.fixedTrip ? late.oneWay : upTo(late.oneWay) }
        var table = Table()
        let keys = RateLimitKeys(seed: [UInt8](repeating: 7, count: 16))
        let nodes = (0..<3).map { _ in RateLimiter(limit: limit, maxKeys: 100, keys: keys, fleet: true) }
        let single = RateLimiter(limit: limit, maxKeys: 100)
        let key = keys.key("biq_mapp_one", "install_1")
        var now: Int64 = 1_000_000
        // The nodes know each other before the burst (as after start-up).
        for _ in 0..<2 {
            for (n, limiter) in nodes.enumerated() {
                let answer = table.exchange(node: n, [], now: now)
                limiter.nodes.store(answer.nodes, ordering: .relaxed)
            }
        }
        var syncs = (0..<3).map { _ in Sync(next: now + upTo(99)) }
        var clients = (0..<12).map { _ in now + upTo(20) }
        var sent = 0
        var admitted = 0
        var singleAdmitted = 0
        var ahead = 0
        while sent < 3 * limit {
            for n in 0..<3 {
                if let answer = syncs[n].answer, answer.at <= now {
                    nodes[n].nodes.store(answer.nodes, ordering: .relaxed)
                    nodes[n].apply(syncs[n].published, answer.others, nowMillis: now, nodes: answer.nodes)
                    syncs[n].answer = nil
                    syncs[n].next = now + 100 + (upTo(99) < late.percent ? upTo(late.starved) : 0)
                }
                if let at = syncs[n].reachesTable, at <= now {
                    let answer = table.exchange(node: n, syncs[n].published, now: now)
                    syncs[n].reachesTable = nil
                    syncs[n].answer = (now + trip(), answer.nodes, answer.others)
                }
                if syncs[n].reachesTable == nil, syncs[n].answer == nil, syncs[n].next <= now {
                    syncs[n].published = nodes[n].collect(limit: 100)
                    syncs[n].reachesTable = now + trip()
                }
            }
            for c in clients.indices where clients[c] <= now && sent < 3 * limit {
                if nodes[sent % 3].acquire(key, nowMillis: now) == nil { admitted += 1 }
                if single.acquire(key, nowMillis: now) == nil { singleAdmitted += 1 }
                sent += 1
                clients[c] = now + 30 + upTo(270)
            }
            ahead = max(ahead, admitted - singleAdmitted)
            now += 1
        }
        return (ahead, admitted)
    }

    private func bound(_ limit: Int, nodes: Int = 3) -> Int { (nodes - 1) * ((limit + 2 * nodes - 1) / (2 * nodes)) }

    func testOnTimeSyncsKeepTheBurstWithinTheBound() {
        for limit in [10, 30, 60, 120] {
            for seed in 0..<50 {
                let r = burst(limit: limit, seed: UInt64(seed), Lateness())
                XCTAssertLessThanOrEqual(r.ahead, bound(limit), "limit \(limit), seed \(seed)")
                XCTAssertGreaterThanOrEqual(r.admitted, limit * 2 / 3, "limit \(limit), seed \(seed)")
            }
        }
    }

    func testADatabaseSlowToAnswerLeavesEveryNodeCountedAndTheBurstWithinTheBound() {
        // 1.4 s a round trip: marks are rewritten that seldom. Counted out after a second,
        // every node decided alone (no shares) and the fleet admitted twice the limit.
        for limit in [10, 30, 60, 120] {
            for seed in 0..<20 {
                let r = burst(limit: limit, seed: UInt64(seed), Lateness(oneWay: 700, fixedTrip: true))
                XCTAssertLessThanOrEqual(r.ahead, bound(limit), "limit \(limit), seed \(seed)")
            }
        }
    }

    func testStarvedSyncThreadsAndSlowTripsStayWithinTheBound() {
        let cases = [
            Lateness(starved: 1_000, percent: 10, oneWay: 25), Lateness(starved: 2_000, percent: 10, oneWay: 50),
            Lateness(starved: 3_000, percent: 50, oneWay: 150), Lateness(starved: 800, percent: 100, oneWay: 200),
        ]
        for late in cases {
            for limit in [10, 30, 60, 120] {
                var worst = 0
                for seed in 0..<100 { worst = max(worst, burst(limit: limit, seed: UInt64(seed), late).ahead) }
                XCTAssertLessThanOrEqual(worst, bound(limit), "limit \(limit), \(late)")
            }
        }
    }
}
