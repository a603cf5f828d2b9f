/// One key of one bucket as one node of a fleet knows it: the rules of decision 0016,
/// free of locks, threads and clocks (`RateLimiter` holds these under its shard locks,
/// `FleetSync` feeds them what the other nodes published).
///
/// - `tat`: the GCRA time of the *fleet's* bucket as this node knows it. This node's own
///   admissions count at once; the others' when a sync reports them (their count grew by
///   d: d more intervals). Alone, it is exactly the single-node limiter.
/// - With more than one live node, a node also needs a *share*: what it may admit before
///   the next sync tells it what the others did. A share is a part of what the bucket
///   still holds: `1/(2n)` of it when the node knows nothing newer (a key met for the
///   first time, or left out of the node's last two syncs: its share is stale),
///   `1/(2n-1)` of it after each sync of the key. Rounded up, so that a bucket that holds anything lets every node through
///   once. Shares are why n nodes cannot each spend a whole bucket between two syncs.
/// - A share never lets the node's admissions that the others cannot know of yet
///   (`unpublished`) exceed its local share of the limit, `ceil(limit / 2n)`: late syncs
///   (a busy machine, a slow database) cannot hide more than that from the fleet.
struct FleetBucket: Sendable, Equatable {
    /// The fleet's bucket: empty again at this time (microseconds).
    var tat: Int64
    /// This node's admissions alone, as a GCRA time: published, so that a node meeting the
    /// key for the first time learns how full the others left it.
    var ownTAT: Int64
    /// Own admissions not yet published.
    var unpublished: Int64 = 0
    /// The others' published total at the last sync of the key; nil before the first.
    var othersSeen: Int64? = nil
    /// What this node may still admit (with more than one node).
    var share: Int64 = 0
    /// The sync that granted `share` (the limiter's count of syncs); -1: never granted.
    /// A key in use is in every sync, so a share two syncs old belongs to a key that
    /// rested meanwhile, and what it was computed from is stale.
    var shareGeneration: Int64 = -1
    /// Waiting in the limiter's list of keys for the next sync.
    var queued = false

    /// An absent key: an empty bucket.
    init(now: Int64) {
        tat = now
        ownTAT = now
    }

    /// The parameters of one bucket.
    struct Rules: Sendable, Equatable {
        /// Requests per window (at least 1).
        let limit: Int
        /// The window: a burst of `limit`, then one every `window / limit`.
        let window: Int64
        let interval: Int64
        let tolerance: Int64
        /// The wait to announce when only the share is spent (until the next sync).
        let shareRetry: Int64

        init(limit: Int, window: Int64 = 60_000_000, syncInterval: Int64 = 100_000) {
            self.limit = max(1, limit)
            self.window = window
            interval = window / Int64(self.limit)
            tolerance = window - interval
            shareRetry = syncInterval
        }

        /// The most a node may have admitted that the other nodes cannot know of yet:
        /// `ceil(limit / 2n)`, its first share of a full bucket.
        func localShare(nodes: Int) -> Int64 {
            let divisor = 2 * Int64(max(nodes, 1))
            return (Int64(limit) + divisor - 1) / divisor
        }
    }

    /// Requests the bucket would still take at `now` (0 when spent).
    func available(now: Int64, _ rules: Rules) -> Int64 {
        let backlog = max(tat - now, 0)
        guard backlog <= rules.tolerance else { return 0 }
        return (rules.tolerance - backlog) / rules.interval + 1
    }

    /// Whether the bucket is spent at `now`, without taking anything: the wait, or nil.
    func wait(now: Int64, _ rules: Rules) -> Int64? {
        let backlog = max(tat, now) - now
        return backlog > rules.tolerance ? backlog - rules.tolerance : nil
    }

    /// Takes one request at `now` with `nodes` live nodes, `generation` syncs after the
    /// node started: nil when admitted, else the microseconds to wait (the bucket's, or
    /// until the next sync when only this node's share is spent). A refusal takes nothing.
    mutating func acquire(now: Int64, nodes: Int, generation: Int64 = 0, _ rules: Rules) -> Int64? {
        if let wait = wait(now: now, rules) { return wait }
        if nodes > 1 {
            if shareGeneration < 0 || generation - shareGeneration >= 2 {
                grant(now: now, divisor: 2 * Int64(nodes), nodes: nodes, generation: generation, rules)
            }
            guard share > 0 else { return rules.shareRetry }
            share -= 1
        }
        tat = max(tat, now) + rules.interval
        ownTAT = max(ownTAT, now) + rules.interval
        unpublished += 1
        return nil
    }

    /// Folds in what the others published (the answer to sync `generation`, which
    /// published `published` of this node's admissions) and renews the share.
    mutating func apply(
        _ others: FleetOthersView, published: Int64, now: Int64, nodes: Int, generation: Int64 = 0, _ rules: Rules
    ) {
        unpublished = max(0, unpublished - published)
        if let seen = othersSeen {
            // What they admitted since the last sync; a smaller total means rows expired
            // or a node left: nothing new to count.
            if others.count > seen { tat = max(tat, now) + (others.count - seen) * rules.interval }
        } else {
            // First sync of the key here: as full as the others left it.
            tat = max(tat, now) + others.backlog
        }
        othersSeen = others.count
        if nodes > 1 {
            grant(now: now, divisor: 2 * Int64(nodes) - 1, nodes: nodes, generation: generation, rules)
        } else {
            shareGeneration = -1
        }
    }

    /// Whether the limiter may forget the key: its bucket is back to empty and nothing
    /// waits to be published.
    func isIdle(now: Int64) -> Bool { tat <= now && unpublished == 0 && !queued }

    private mutating func grant(now: Int64, divisor: Int64, nodes: Int, generation: Int64, _ rules: Rules) {
        let left = available(now: now, rules)
        // What the others cannot know of yet (`unpublished`: not yet published, or
        // published by an exchange whose answer has not come back) never exceeds the
        // node's local share of the limit: a node whose syncs are late (a starved
        // thread, a slow server) stops there instead of spending shares the others
        // never hear of.
        let unseen = max(0, rules.localShare(nodes: nodes) - unpublished)
        share = min((left + divisor - 1) / divisor, unseen)
        shareGeneration = generation
    }
}

/// The others' side of one key after an exchange, in the limiter's units.
struct FleetOthersView: Sendable, Equatable {
    var count: Int64
    /// The sum of their own buckets' backlogs (microseconds).
    var backlog: Int64
}
