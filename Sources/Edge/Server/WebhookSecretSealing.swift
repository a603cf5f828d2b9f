import Core
import Model
import Store

/// Seals the webhooks' signing secrets that are stored as such (decision 0031): those of an
/// older version after an upgrade, and those written while a rolling upgrade was not over.
///
/// SQLite (one process): at once, at start-up. PostgreSQL: once `PGWebhookSealingGate` has
/// said for `settleMilliseconds` that no live node runs an older binary (it raised
/// `compatible_from` to 16 first, so none starts again); until then the secrets stay
/// readable to the older nodes. A thread checks every `passMilliseconds`.
final class WebhookSecretSealing: Sendable {
    static let passMilliseconds = 10_000

    private struct State: Sendable {
        var running = true
        /// When this node first saw the gate open (the monotonic clock, milliseconds).
        var openSince: Int64?
        var waitingLogged = false
        var thread: OSThread?
    }

    private let store: any Store
    private let keeper: WebhookSecretKeeper
    private let gate: (@Sendable () throws -> PGWebhookSealingGate.Verdict)?
    /// The store held a sealed secret at start-up: the fleet sealed before (and raised
    /// `compatible_from` then), so an open gate needs no settling.
    private let sealedBefore: Bool
    /// After secrets stored as such were sealed: SQLite's WAL emptied into the file, so that
    /// no page keeps them (`SQLiteStore.truncateWAL`).
    private let afterSealing: (@Sendable () throws -> Void)?
    private let log: Log
    private let state = Monitor(State())

    /// `gate`: PostgreSQL's (nil on SQLite, which seals at once).
    init(
        store: any Store, keeper: WebhookSecretKeeper, gate: (@Sendable () throws -> PGWebhookSealingGate.Verdict)?,
        sealedBefore: Bool, afterSealing: (@Sendable () throws -> Void)? = nil, log: Log
    ) {
        self.store = store
        self.keeper = keeper
        self.gate = gate
        self.sealedBefore = sealedBefore
        self.afterSealing = afterSealing
        self.log = log
    }

    /// Seals what is stored as such, in one write: returns how many endpoints changed.
    /// Nothing while this node has no keyring or does not seal yet.
    static func sealStored(store: any Store, keeper: WebhookSecretKeeper) throws -> Int {
        guard keeper.isSealing, keeper.keyring != nil else { return 0 }
        return try store.writeAndWait { tx in
            var changed = 0
            let now = Int64(Clock.nowMilliseconds())
            for e in try tx.webhookEndpoints() {
                let sealed = try keeper.sealed(e, tx, now: now)
                if sealed != e {
                    try tx.putWebhookEndpoint(sealed)
                    changed += 1
                }
            }
            return changed
        }
    }

    func start() {
        if gate == nil {
            keeper.startSealing()
            pass()
            return
        }
        pass()
        let t = OSThread(name: "biqli-webhook-seal") { [self] in
            while wait(milliseconds: Self.passMilliseconds) { pass() }
        }
        state.withLock { $0.thread = t }
    }

    func stop() {
        let t = state.withLock { s in
            s.running = false
            return s.thread
        }
        state.broadcast()
        t?.join()
    }

    /// One check: the gate (PostgreSQL), then the seal of what is stored as such.
    private func pass() {
        // Without a keyring (said at start-up, and by `check`) the gate still decides: once
        // the fleet seals, this node refuses new secrets rather than store them as such.
        if let gate, !keeper.isSealing {
            let now = Int64(Clock.monotonicNanoseconds() / 1_000_000)
            do {
                switch try gate() {
                case .waiting(let nodes):
                    state.withLock { $0.openSince = nil }
                    let first = state.withLock { s in
                        defer { s.waitingLogged = true }
                        return !s.waitingLogged
                    }
                    if first {
                        log.info(
                            "webhook secrets stay unsealed while older nodes run",
                            [("nodes", .array(nodes.map { .string($0.name + " (" + $0.version + ")") }))])
                    }
                    return
                case .open(let raised):
                    let since = state.withLock { s in
                        if s.openSince == nil { s.openSince = now }
                        return s.openSince!
                    }
                    let settled = (sealedBefore && !raised) || now - since >= PGWebhookSealingGate.settleMilliseconds
                    guard settled else { return }
                    keeper.startSealing()
                }
            } catch {
                log.warn("webhook secrets: cannot check the fleet's nodes", [("detail", .string("\(error)"))])
                return
            }
        }
        do {
            let changed = try Self.sealStored(store: store, keeper: keeper)
            if changed > 0 {
                try afterSealing?()
                log.info("webhook secrets sealed", [("endpoints", .int(Int64(changed)))])
            }
        } catch {
            log.error("webhook secrets: cannot seal", [("detail", .string("\(error)"))])
        }
    }

    /// Sleeps; false once stopped.
    private func wait(milliseconds: Int) -> Bool {
        let deadline = Clock.monotonicNanoseconds() &+ UInt64(milliseconds) * 1_000_000
        return state.withCondition { held in
            while held.state.running {
                if !held.wait(untilMonotonic: deadline) { return true }
            }
            return false
        }
    }
}
