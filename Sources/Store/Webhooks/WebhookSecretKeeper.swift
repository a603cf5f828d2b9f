import Core
import Model

/// This process's view of the webhooks' signing secrets at rest (decision 0031): the keyring
/// read from the data directory (`WebhookKeyring`; nil when this node has none), whether new
/// and existing secrets are to be stored sealed, and the two uses of a secret: sealing it
/// before it is stored, opening it before a delivery is signed.
///
/// Sealing is on from the start on SQLite; on PostgreSQL only once every live node's binary
/// reads sealed secrets (`PGWebhookSealingGate`): until then secrets are written as an older
/// binary reads them. A keyring that lacks a key a stored secret names is read again from its
/// file (`reload`, at most every `reloadMilliseconds`), so a file copied in after a rotation
/// elsewhere is taken without a restart; the reload runs on a delivery thread, never the
/// store's writer.
public final class WebhookSecretKeeper: Sendable {
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// This node has no keyring (`path`), and the store's secrets are sealed with `registered`.
        case noKeyring(path: String, registered: [String])
        /// None of this node's keys is one the store registered: it would seal with a key the
        /// other nodes cannot open.
        case notTheStoresKey(held: [String], registered: [String])

        public var description: String {
            switch self {
            case .noKeyring(let path, let registered):
                return "webhook secrets cannot be sealed or opened on this node: \(path) is missing"
                    + (registered.isEmpty
                        ? "" : " (the store's secrets are sealed with \(registered.joined(separator: ", ")))")
                    + "; copy it from a node of the fleet (or restore it from the backup)"
            case .notTheStoresKey(let held, let registered):
                return
                    "this node's webhook keys (\(held.joined(separator: ", "))) are not the ones the store's secrets "
                    + "are sealed with (\(registered.joined(separator: ", "))); copy the keyring from a node that holds them"
            }
        }

        /// As a write body throws it: the store keeps a `StoreError`'s message (another
        /// error's only its type), and this one names no secret.
        public var storeError: StoreError { .backend(code: -1, message: description) }
    }

    private struct State: Sendable {
        var keyring: WebhookKeyring?
        var sealing: Bool
        /// Key ids met in stored secrets that the keyring lacks.
        var missing: Set<String> = []
        var reloadedAt: UInt64 = 0
    }

    public static let reloadMilliseconds: UInt64 = 5_000
    private let state: Monitor<State>
    private let reload: @Sendable () -> WebhookKeyring?
    /// Where the keyring lives, for messages.
    public let path: String

    public init(
        keyring: WebhookKeyring?, sealing: Bool, path: String,
        reload: @escaping @Sendable () -> WebhookKeyring? = { nil }
    ) {
        state = Monitor(State(keyring: keyring, sealing: sealing))
        self.reload = reload
        self.path = path
    }

    public var keyring: WebhookKeyring? { state.withLock { $0.keyring } }
    public var isSealing: Bool { state.withLock { $0.sealing } }

    /// From now on, secrets are stored sealed.
    public func startSealing() { state.withLock { $0.sealing = true } }

    /// Whether every secret `e` signs with at `now` opens with this node's keys (a plaintext
    /// one does); notes the keys it lacks for `reloadIfMissing`. Pure: callable inside a
    /// write body.
    public func canOpen(_ e: WebhookEndpoint, at now: Int64) -> Bool {
        let ids = e.signingSecrets(at: now).compactMap(WebhookSecretSeal.keyId)
        guard !ids.isEmpty else { return true }
        return state.withLock { s in
            let lacking = ids.filter { s.keyring?.key(id: $0) == nil }
            s.missing.formUnion(lacking)
            return lacking.isEmpty
        }
    }

    /// Reads the keyring's file again when a stored secret named a key it lacks, at most
    /// every `reloadMilliseconds`. Off the store's writer (it reads a file).
    public func reloadIfMissing() {
        let due = state.withLock { s -> Bool in
            guard !s.missing.isEmpty else { return false }
            let now = Clock.monotonicNanoseconds()
            guard s.reloadedAt == 0 || now &- s.reloadedAt >= Self.reloadMilliseconds * 1_000_000 else { return false }
            s.reloadedAt = now
            return true
        }
        guard due, let fresh = reload() else { return }
        state.withLock { s in
            s.keyring = fresh
            s.missing = s.missing.filter { fresh.key(id: $0) == nil }
        }
    }

    /// The secrets to sign with at `now` (`WebhookEndpoint.signingSecrets`), opened.
    public func signingSecrets(_ e: WebhookEndpoint, at now: Int64) throws -> [String] {
        let ring = keyring ?? WebhookKeyring(keys: [])
        return try e.signingSecrets(at: now).map { stored in
            try WebhookSecretSeal.open(stored, endpointId: e.id, keyring: ring)
        }
    }

    /// `e` as it is to be stored: while sealing is on, its secrets that are not sealed are,
    /// with the key that seals (`sealingKey`); otherwise unchanged.
    public func sealed(_ e: WebhookEndpoint, _ tx: any WebhookWriting, now: Int64) throws(StoreError)
        -> WebhookEndpoint
    {
        let plain = [e.secret, e.previousSecret].contains { $0.map { !WebhookSecretSeal.isSealed($0) } ?? false }
        guard isSealing, plain else { return e }
        let key = try sealingKey(tx, now: now)
        var out = e
        out.secret = seal(e.secret, e.id, key)
        out.previousSecret = e.previousSecret.map { seal($0, e.id, key) }
        return out
    }

    /// The key this node seals with: the first of its keys that the store registered, or,
    /// when the store registered none yet, its first key (registered now, in `tx`).
    public func sealingKey(_ tx: any WebhookWriting, now: Int64) throws(StoreError) -> WebhookKeyring.Key {
        let registered = try tx.webhookSecretKeyIds()
        guard let ring = keyring, let first = ring.current else {
            throw Problem.noKeyring(path: path, registered: registered).storeError
        }
        let known = registered.isEmpty ? try tx.registerFirstWebhookSecretKey(id: first.id, now: now) : registered
        guard let key = ring.keys.first(where: { known.contains($0.id) }) else {
            throw Problem.notTheStoresKey(held: ring.ids, registered: known).storeError
        }
        return key
    }

    /// A plaintext secret sealed with `key`; a sealed one as it is.
    private func seal(_ stored: String, _ endpointId: String, _ key: WebhookKeyring.Key) -> String {
        WebhookSecretSeal.isSealed(stored) ? stored : WebhookSecretSeal.seal(stored, endpointId: endpointId, key: key)
    }
}
