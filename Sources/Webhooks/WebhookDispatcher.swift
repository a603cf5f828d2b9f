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
public final class WebhookDispatcher: Sendable {
    private struct State: Sendable {
        var running = false
        var threads: [OSThread] = []
        /// Threads working on each endpoint now.
        var busy: [String: Int] = [:]
    }

    private let store: any Store
    private let settings: WebhookDeliverySettings
    /// Opens the sealed signing secrets (decision 0031); an endpoint whose secrets this
    /// node cannot open is left to the nodes that can.
    private let secrets: WebhookSecretKeeper
    private let client: HTTPSClient
    private let owner: String
    private let state = Monitor(State())
    private let warn: @Sendable (String, [(String, String)]) -> Void
    public let statistics = WebhookStatistics()

    /// `warn` logs what went wrong (never a secret, never a body).
    public init(
        store: any Store, settings: WebhookDeliverySettings, secrets: WebhookSecretKeeper, userAgent: String,
        warn: @escaping @Sendable (String, [(String, String)]) -> Void
    ) throws(NetworkError) {
        self.store = store
        self.settings = settings
        self.secrets = secrets
        self.client = try HTTPSClient(rootsFile: settings.caRootsFile, userAgent: userAgent)
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
        state.withLock { $0.running = true }
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
            s.running = false
            return s.threads
        }
        state.broadcast()
        WebhookSignal.wake()
        for t in threads { t.join() }
        state.withLock { $0.threads = [] }
        let owner = self.owner
        try? store.writeAndWait { tx in try tx.releaseWebhookLeases(ownerPrefix: owner) }
    }

    private var isRunning: Bool { state.withLock { $0.running } }

    private func deliveryLoop(poll: Int) {
        // This thread's kept-alive connection (to the origin it sent to last).
        let session = HTTPSSession(client: client)
        defer { session.close() }
        var seen = WebhookSignal.current
        var woken = false
        while isRunning {
            if woken {
                // Let the rows of a burst gather (and the commit that raised the signal end).
                pause(milliseconds: settings.gatherMilliseconds)
            }
            let excluded = state.withLock { WebhookClaimPlan.excluded(busy: $0.busy, cap: settings.threadsPerEndpoint) }
            let batch: [(WebhookDelivery, WebhookEndpoint)]
            do {
                batch = try claim(excluding: excluded)
                // A key met in the store that this node lacks: its file may have been replaced.
                secrets.reloadIfMissing()
            } catch {
                warn("webhooks: cannot claim deliveries", [("error", "\(error)")])
                pause(milliseconds: settings.pollMilliseconds)
                continue
            }
            if batch.isEmpty {
                let before = seen
                seen = WebhookSignal.wait(after: seen, milliseconds: poll)
                woken = seen != before
                continue
            }
            woken = false
            // A full batch: more may be due; the other threads take their share.
            if batch.count == settings.claimBatch { WebhookSignal.wake() }
            let endpoints = Set(batch.map(\.1.id))
            state.withLock { s in for e in endpoints { s.busy[e, default: 0] += 1 } }
            send(batch, session)
            state.withLock { s in
                for e in endpoints {
                    s.busy[e, default: 1] -= 1
                    if s.busy[e] == 0 { s.busy[e] = nil }
                }
            }
        }
    }

    /// Due deliveries leased to this process, with their endpoints, in one write body.
    private func claim(excluding: Set<String>) throws(StoreError) -> [(WebhookDelivery, WebhookEndpoint)] {
        let owner = self.owner
        let lease = settings.leaseMilliseconds
        let limit = settings.claimBatch
        let secrets = self.secrets
        return try store.writeAndWait { tx in
            let now = Int64(Clock.nowMilliseconds())
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
    private func send(_ batch: [(WebhookDelivery, WebhookEndpoint)], _ session: HTTPSSession) {
        var made: [Made] = []
        var firstAt: UInt64 = 0
        for (delivery, endpoint) in batch {
            // Stopping: the rest of the batch is left to `stop`, which releases its leases.
            guard isRunning else { break }
            if made.isEmpty { firstAt = Clock.monotonicNanoseconds() }
            made.append(attempt(delivery, endpoint, session))
            let waited = (Clock.monotonicNanoseconds() &- firstAt) / 1_000_000
            if made.count >= settings.recordBatch || waited >= UInt64(settings.recordDelayMilliseconds) {
                record(made)
                made.removeAll()
            }
        }
        if !made.isEmpty { record(made) }
    }

    /// One attempt, and what it means for its delivery.
    private func attempt(_ d: WebhookDelivery, _ e: WebhookEndpoint, _ session: HTTPSSession) -> Made {
        let at = Int64(Clock.nowMilliseconds())
        let started = Clock.monotonicNanoseconds()
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
            let r = try session.send(
                "POST", e.url, headers: WebhookRequest.headers(d, secrets: signing, nowMilliseconds: at), body: d.body,
                timeoutMilliseconds: settings.timeoutMilliseconds,
                options: HTTPSClient.Options(
                    allowHTTP: settings.allowHTTP, publicAddressesOnly: !settings.allowPrivate,
                    maxBodyBytes: WebhookDeliverySettings.maxAnswerBytes))
            status = r.status
            answer = WebhookVerdict.answerText(r.body)
            retryAfter = RetryAfter.milliseconds(r.header("Retry-After"), now: at)
            if (300..<400).contains(r.status) { failure = "redirect not followed" }
        } catch {
            failure = error.description
        }
        let duration = Int64((Clock.monotonicNanoseconds() &- started) / 1_000_000)
        let now = Int64(Clock.nowMilliseconds())
        let outcome = WebhookVerdict.outcome(
            status: status, retryAfter: retryAfter, delivery: d, schedule: settings.schedule, now: now,
            random: Double.random(in: 0..<1))
        let record = WebhookAttempt(
            endpointId: d.endpointId, messageId: d.messageId, number: d.attempts + 1, at: at,
            durationMilliseconds: duration, status: status, error: failure, answer: answer, node: settings.node)
        return Made(attempt: record, claimedAttempts: d.attempts, outcome: outcome, at: now)
    }

    private func record(_ made: [Made]) {
        WebhookOutcomeWriter(store: store, owner: owner, statistics: statistics, warn: warn).record(made)
    }

    private func depthLoop(_ reader: any StoreReader) {
        while isRunning {
            if let (pending, oldest) = try? reader.webhookOutboxDepth() {
                let age = oldest.map { max(0, Int64(Clock.nowMilliseconds()) - $0) } ?? 0
                statistics.depth(pending: pending, oldestAgeMilliseconds: age)
            }
            pause(milliseconds: 5_000)
        }
    }

    /// Sleeps, or less when stopped.
    private func pause(milliseconds: Int) {
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(milliseconds) * 1_000_000
        state.withCondition { held in
            while held.state.running {
                if !held.wait(untilMonotonic: deadline) { break }
            }
        }
    }
}
