import Foundation
import Store

@testable import Resolver

/// The fleet's table in memory: what `PGFleetCounters` keeps in `rate_counts` and the
/// nodes' marks in `nodes`, with the same exchange (a node reads the others' rows, never
/// its own).
final class MemoryFleet: @unchecked Sendable {
    private struct Row {
        var count: Int64
        var ownTAT: Int64
    }
    private struct Key: Hashable {
        var bucket: Int
        var key: UInt64
        var node: Int
    }
    private let lock = NSLock()
    private var rows: [Key: Row] = [:]
    private var live: Set<Int> = []
    let seed = [UInt8](repeating: 7, count: 16)
    /// Exchanges fail while this is set (a database away).
    var failing = false
    private(set) var exchanges = 0

    func counters(node: Int) -> Counters { Counters(fleet: self, node: node) }

    /// What `node` has published for `key` (tests).
    func published(bucket: Int, key: UInt64, node: Int) -> Int64? {
        lock.withLock { rows[Key(bucket: bucket, key: key, node: node)]?.count }
    }

    fileprivate func exchange(node: Int, _ counts: [FleetCount], now: Int64) throws(StoreError) -> FleetExchange {
        lock.lock()
        defer { lock.unlock() }
        do {
            if failing { throw .unavailable("the test's database is away") }
            exchanges += 1
            live.insert(node)
            var others: [FleetOthers] = []
            for c in counts {
                var count: Int64 = 0
                var backlog: Int64 = 0
                for (k, row) in rows where k.bucket == c.bucket && k.key == c.key && k.node != node {
                    count += row.count
                    backlog += max(0, row.ownTAT - now)
                }
                others.append(FleetOthers(count: count, backlogMicros: backlog))
                let mine = Key(bucket: c.bucket, key: c.key, node: node)
                rows[mine] = Row(count: (rows[mine]?.count ?? 0) + c.added, ownTAT: c.ownTAT)
            }
            return FleetExchange(nodes: live.count, others: others)
        }
    }

    fileprivate func leave(node: Int) { _ = lock.withLock { live.remove(node) } }

    struct Counters: FleetCounters {
        let fleet: MemoryFleet
        let node: Int
        var isShared: Bool { true }
        var keySeed: [UInt8] { fleet.seed }
        func exchange(_ counts: [FleetCount], nowMicros: Int64) throws(StoreError) -> FleetExchange {
            try fleet.exchange(node: node, counts, now: nowMicros)
        }
        func leave() { fleet.leave(node: node) }
    }
}
