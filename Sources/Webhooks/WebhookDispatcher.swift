import Core
import Model
import Outbound
import Store

#if canImport(Glibc)
import Glibc
#endif

/// This node's delivery threads (decision 0028): each claims a batch of due deliveries
/// from the outbox under a lease (one node per delivery in a fleet), makes each attempt
/// with the blocking client, and writes the outcomes (a few at a time) while the lease is
/// still its own. Never on an event loop; the store is reached through its writer
/// (`writeAndWait`) and, for the outbox's depth, through a reader of its own.
///
/// One slow receiver cannot take every thread: at most `threadsPerEndpoint` threads of
/// this node work on one endpoint, the others claim from the rest.
///
/// Its transport (`WebhookSender`) and its clock (`WebhookClock`) are seams: the unit
/// tests run passes (`deliverDue`) against a receiver and a time of their own.
public final class WebhookDispatcher: Sendable {
    private struct State: Sendable {
        var stopping = false
        var threads: [OSThread] = []
        /// Threads working on each endpoint now.
        var busy: [String: Int] = [:]
    }

    private let store: any Store
    /// The store's wake-up: raised by its writes to the outbox.
    private let signal: WebhookSignal
    private let settings: WebhookDeliverySettings
    /// Opens the sealed signing secrets (decision 0031); an endpoint whose secrets this
    /// node cannot open is left to the nodes that can.
    private let secrets: WebhookSecretKeeper
    /// A sender for each delivery thread.
    private let makeSender: @Sendable () -> any WebhookSender
    private let clock: WebhookClock
    private let owner: String
    private let state = Monitor(State())
    private let warn: @Sendable (String, [(String, String)]) -> Void
    public let statistics = WebhookStatistics()

    /// `signal`: the store's (`SQLiteStore.webhookSignal`, `PGStore.webhookSignal`);
    /// `warn` logs what went wrong (never a secret, never a body).
    public convenience init(
        store: any Store, signal: WebhookSignal, settings: WebhookDeliverySettings, secrets: WebhookSecretKeeper,
        userAgent: String, warn: @escaping @Sendable (String, [(String, String)]) -> Void
    ) throws(NetworkError) {
        let client = try HTTPSClient(rootsFile: settings.caRootsFile, userAgent: userAgent)
        self.init(
            store: store, signal: signal, settings: settings, secrets: secrets,
            senders: { HTTPSWebhookSender(client: client, settings: settings) }, clock: .system, warn: warn)
    }

    /// `senders` makes each delivery thread's transport; `clock` dates and measures attempts.
    init(
        store: any Store, signal: WebhookSignal, settings: WebhookDeliverySettings, secrets: WebhookSecretKeeper,
        senders: @escaping @Sendable () -> any WebhookSender, clock: WebhookClock,
        warn: @escaping @Sendable (String, [(String, String)]) -> Void
    ) {
        self.store = store
        self.signal = signal
        self.settings = settings
        self.secrets = secrets
        self.makeSender = senders
        self.clock = clock
        self.owner = settings.node + ":" + String(getpid())
        self.warn = warn
    }

    /// Starts the delivery threads, and the outbox's depth reader on `depthReaderLoop`
    /// (the store reader no event loop uses) when given. `releaseEveryLease`: one process
    /// serves the store (SQLite), so leases found at start-up are a dead one's; else only
    /// this node's earlier processes' are released.
    public func start(depthReaderLoop: Int?, releaseEveryLease: Bool) {
        let prefix = releaseEveryLease ? nil : settings.node + ":"
        do {
            try store.writeAndWait { tx in try tx.releaseWebhookLeases(ownerPrefix: prefix) }
        } catch {
            warn("webhooks: cannot release the leases of an earlier process", [("error", "\(error)")])
        }
        state.withLock { $0.stopping = false }
        var threads: [OSThread] = []
        for i in 0..<max(1, settings.threads) {
            // Thread 0 looks for rows every poll (other nodes' rows, retries coming due);
            // the others wake on this process's writes, or when a thread finds a full batch.
            let poll = i == 0 ? settings.pollMilliseconds : settings.pollMilliseconds * 5
            threads.append(OSThread(name: "biqli-webhook-\(i)") { [self] in deliveryLoop(poll: poll) })
        }
        if let depthReaderLoop {
            threads.append(
                OSThread(name: "biqli-webhook-d") { [self] in depthLoop(store.reader(loop: depthReaderLoop)) })
        }
        state.withLock { $0.threads = threads }
    }

    /// Stops claiming, lets the attempt under way on each thread finish (within its
    /// timeout) and writes the outcomes made, then releases what this process still holds
    /// (the rest of the batches), so another node or the next start takes it.
    public func stop() {
        let threads = state.withLock { s in
            s.stopping = true
            return s.threads
        }
        state.broadcast()
        signal.wake()
        for t in threads { t.join() }
        state.withLock { $0.threads = [] }
        let owner = self.owner
        try? store.writeAndWait { tx in try tx.releaseWebhookLeases(ownerPrefix: owner) }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func deliveryLoop(poll: Int) {
        // This thread's transport (a kept-alive connection to the origin it sent to last).
        let sender = makeSender()
        defer { sender.close() }
        var seen = signal.current
        var woken = false
        while !isStopping {
            if woken {
                // Let the rows of a burst gather (and the commit that raised the signal end).
                pause(milliseconds: settings.gatherMilliseconds)
            }
            let claimed: Int
            do {
                claimed = try deliverDue(sender)
            } catch {
                warn("webhooks: cannot claim deliveries", [("error", "\(error)")])
                pause(milliseconds: settings.pollMilliseconds)
                continue
            }
            if claimed == 0 {
                let before = seen
                seen = signal.wait(after: seen, milliseconds: poll)
                woken = seen != before
                continue
            }
            woken = false
        }
    }

    /// One pass of a delivery thread: claims what is due (at most `claimBatch`, leaving out
    /// the endpoints that `threadsPerEndpoint` threads work on), sends each through `sender`
    /// and writes the outcomes. Returns how many it claimed; throws when it cannot claim.
    func deliverDue(_ sender: any WebhookSender) throws(StoreError) -> Int {
        let excluded = state.withLock { WebhookClaimPlan.excluded(busy: $0.busy, cap: settings.threadsPerEndpoint) }
        let batch = try claim(excluding: excluded)
        // A key met in the store that this node lacks: its file may have been replaced.
        secrets.reloadIfMissing()
        guard !batch.isEmpty else { return 0 }
        // A full batch: more may be due; the other threads take their share.
        if batch.count == settings.claimBatch { signal.wake() }
        let endpoints = Set(batch.map(\.1.id))
        state.withLock { s in for e in endpoints { s.busy[e, default: 0] += 1 } }
        send(batch, sender)
        state.withLock { s in
            for e in endpoints {
                s.busy[e, default: 1] -= 1
                if s.busy[e] == 0 { s.busy[e] = nil }
            }
        }
        return batch.count
    }

    /// Due deliveries leased to this process, with their endpoints, in one write body.
    private func claim(excluding: Set<String>) throws(StoreError) -> [(WebhookDelivery, WebhookEndpoint)] {
        let owner = self.owner
        let lease = settings.leaseMilliseconds
        let limit = settings.claimBatch
        let secrets = self.secrets
        let clock = self.clock
        return try store.writeAndWait { tx in
            let now = clock.now()
            let rows = try tx.claimWebhookDeliveries(
                owner: owner, now: now, leaseUntil: now + lease, limit: limit, perEndpoint: limit,
                excluding: excluding, leaving: { !secrets.canOpen($0, at: now) })
            var endpoints: [String: WebhookEndpoint] = [:]
            var out: [(WebhookDelivery, WebhookEndpoint)] = []
            for d in rows {
                if endpoints[d.endpointId] == nil { endpoints[d.endpointId] = try tx.webhookEndpoint(id: d.endpointId) }
                if let e = endpoints[d.endpointId] { out.append((d, e)) }
            }
            return out
        }
    }

    /// Attempts each delivery in turn; writes their outcomes `recordBatch` at a time, or
    /// `recordDelayMilliseconds` after the first unwritten one (a slow receiver's), and at
    /// the end.
    private func send(_ batch: [(WebhookDelivery, WebhookEndpoint)], _ sender: any WebhookSender) {
        var made: [Made] = []
        var firstAt: UInt64 = 0
        for (delivery, endpoint) in batch {
            // Stopping: the rest of the batch is left to `stop`, which releases its leases.
            guard !isStopping else { break }
            if made.isEmpty { firstAt = clock.monotonicNanoseconds() }
            made.append(attempt(delivery, endpoint, sender))
            let waited = (clock.monotonicNanoseconds() &- firstAt) / 1_000_000
            if made.count >= settings.recordBatch || waited >= UInt64(settings.recordDelayMilliseconds) {
                record(made)
                made.removeAll()
            }
        }
        if !made.isEmpty { record(made) }
    }

    /// One attempt, and what it means for its delivery.
    private func attempt(_ d: WebhookDelivery, _ e: WebhookEndpoint, _ sender: any WebhookSender) -> Made {
        let at = clock.now()
        let started = clock.monotonicNanoseconds()
        var status: Int?
        var failure: String?
        var answer: String?
        var retryAfter: Int64?
        do throws(NetworkError) {
            let signing: [String]
            do {
                signing = try secrets.signingSecrets(e, at: at)
            } catch {
                // Never sent unsigned or signed with something else: a failed attempt, tried again.
                throw NetworkError.refused("the endpoint's signing secret cannot be opened: \(error)")
            }
            let r = try sender.post(
                e.url, headers: WebhookRequest.headers(d, secrets: signing, nowMilliseconds: at), body: d.body)
            status = r.status
            answer = WebhookVerdict.answerText(r.body)
            retryAfter = RetryAfter.milliseconds(r.header("Retry-After"), now: at)
            if (300..<400).contains(r.status) { failure = "redirect not followed" }
        } catch {
            failure = error.description
        }
        let duration = Int64((clock.monotonicNanoseconds() &- started) / 1_000_000)
        let now = clock.now()
        let outcome = WebhookVerdict.outcome(
            status: status, retryAfter: retryAfter, delivery: d, schedule: settings.schedule, now: now,
            random: clock.random())
        let record = WebhookAttempt(
            endpointId: d.endpointId, messageId: d.messageId, number: d.attempts + 1, at: at,
            durationMilliseconds: duration, status: status, error: failure, answer: answer, node: settings.node)
        return Made(attempt: record, claimedAttempts: d.attempts, outcome: outcome, at: now)
    }

    private func record(_ made: [Made]) {
        WebhookOutcomeWriter(store: store, owner: owner, statistics: statistics, warn: warn).record(made)
    }

    private func depthLoop(_ reader: any WebhookReading) {
        while !isStopping {
            if let (pending, oldest) = try? reader.webhookOutboxDepth() {
                let age = oldest.map { max(0, clock.now() - $0) } ?? 0
                statistics.depth(pending: pending, oldestAgeMilliseconds: age)
            }
            pause(milliseconds: 5_000)
        }
    }

    /// Sleeps, or less when stopped.
    private func pause(milliseconds: Int) {
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(milliseconds) * 1_000_000
        state.withCondition { held in
            while !held.state.stopping {
                if !held.wait(untilMonotonic: deadline) { break }
            }
        }
    }
}
