import Core
import Model
import Store
import Synchronization

/// The Ed25519 keys that sign attribution receipts.
///
/// Keys live in the store (`signing_keys`: public key, 32-byte seed, times) so
/// that receipts stay verifiable across restarts; they are service keys the
/// edge generates itself, not user secrets, and the database is already the
/// place whose compromise would matter (it holds every link and app). In memory
/// the signing key is parsed once, so signing costs one Ed25519 signature.
///
/// Rotation: a new key signs from the moment it exists; every previously active
/// key is retired and stays in the JWKS until `publishUntil` = retirement +
/// receipt lifetime + margin, so no live receipt ever loses its key. Rotation
/// happens on `rotate(now:)` and, automatically, at the first signature after
/// `rotationIntervalSeconds` (written in the background; the old key signs
/// until the new one is durable).
public final class ReceiptKeyring: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Automatic rotation period; 0 turns it off. Default 30 days.
        public var rotationIntervalSeconds: Int64
        /// Receipt lifetime (`exp - iat`). Default 600 (10 minutes).
        public var receiptLifetimeSeconds: Int64
        /// Extra time a retired key stays published, covering clock skew and
        /// verifiers' JWKS caches. Default 600.
        public var publishMarginSeconds: Int64

        public init(
            rotationIntervalSeconds: Int64 = 30 * 86_400, receiptLifetimeSeconds: Int64 = 600,
            publishMarginSeconds: Int64 = 600
        ) {
            self.rotationIntervalSeconds = rotationIntervalSeconds
            self.receiptLifetimeSeconds = receiptLifetimeSeconds
            self.publishMarginSeconds = publishMarginSeconds
        }
    }

    public let configuration: Configuration
    private let store: any Store
    private let state: Mutex<State>

    private struct State: Sendable {
        var current: SigningKey
        var records: [SigningKeyRecord]
        /// Keys other than `current` that signed a stored receipt input lately (parsed
        /// once: parsing derives the public key).
        var retired: [SigningKey] = []
        var rotating = false
        /// `store.publishableKeysVersion` when `records` were read: another process's
        /// change to the keys (another edge rotated) moves it.
        var version: UInt64 = 0
    }

    /// Loads the keys from `store`, creating the first one when there is none
    /// (and rotating at once when the newest is past its interval).
    public init(store: any Store, configuration: Configuration = Configuration(), now: Int64) throws(StoreError) {
        _ = Sodium.ready
        self.store = store
        self.configuration = configuration
        let version = store.publishableKeysVersion
        let records = try store.writeAndWait { tx in
            // Several edges starting at once on one database make one first key.
            try tx.lock(.signingKeys)
            let existing = try tx.signingKeys()
            if ReceiptKeyring.newestUsable(existing) != nil { return existing }
            let (_, record) = ReceiptKeyring.newKey(now: now)
            try tx.putSigningKey(record)
            return try tx.signingKeys()
        }
        guard let current = ReceiptKeyring.newestUsable(records) else {
            throw StoreError.backend(code: 0, message: "no usable receipt signing key after creating one")
        }
        state = Mutex(State(current: current, records: records, version: version))
        if isDue(current, now: now) { try rotate(now: now) }
    }

    /// The `kid` of the key that signs now.
    public var currentKeyId: String { state.withLock { $0.current.kid } }

    /// The JWKS as this process knows it (the store's copy may be newer if
    /// another process rotated; `Resolver.jwks` reads the store).
    public func jwks(now: Int64) -> [UInt8] { JWKS.document(state.withLock { $0.records }, now: now) }

    /// Makes a new key the signing key and retires every other active key, unless
    /// another edge sharing the database rotated since this one last read the keys (then
    /// its key is adopted: rotation happens once for the fleet).
    public func rotate(now: Int64, force: Bool = true) throws(StoreError) {
        let (_, record) = ReceiptKeyring.newKey(now: now)
        let retireUntil = now + (configuration.receiptLifetimeSeconds + configuration.publishMarginSeconds) * 1000
        let known = state.withLock { $0.current.kid }
        let configuration = self.configuration
        let records = try store.writeAndWait { tx in
            try ReceiptKeyring.install(
                record, tx: tx, now: now, until: retireUntil, unlessRotatedSince: force ? nil : known,
                configuration: configuration)
        }
        adopt(records)
    }

    /// Takes the newest usable key of `records` as the signing key.
    private func adopt(_ records: [SigningKeyRecord]) {
        let newest = ReceiptKeyring.newestUsable(records)
        let version = store.publishableKeysVersion
        state.withLock {
            if let newest { $0.current = newest }
            $0.records = records
            $0.retired = $0.retired.filter { key in records.contains { $0.kid == key.kid } }
            $0.rotating = false
            $0.version = version
        }
    }

    /// Reads the keys again when another process changed them (another edge rotated):
    /// called on a loop with its reader before signing, so that a node never keeps
    /// signing with a key the fleet retired.
    func refreshIfChanged(reader: any SigningKeyReading) {
        let version = store.publishableKeysVersion
        guard state.withLock({ $0.version != version }) else { return }
        guard let records = try? reader.signingKeys() else { return }
        adopt(records)
    }

    /// Rotates when the signing key is older than the interval; true if it did.
    @discardableResult
    public func rotateIfDue(now: Int64) throws(StoreError) -> Bool {
        guard isDue(state.withLock { $0.current }, now: now) else { return false }
        try rotate(now: now, force: false)
        return true
    }

    /// A compact JWS of `claims` (UTF-8) with the current key; may start a background rotation.
    func sign(_ claims: [UInt8], now: Int64) -> [UInt8] { signingKey(now: now).sign(payload: claims) }

    /// The signed part (`header.payload`) of the receipt of `claims` with the current key,
    /// for the writer to store and an event loop to sign (`sign(input:)`, decision 0023).
    func signingInput(_ claims: [UInt8], now: Int64) -> [UInt8] {
        signingKey(now: now).signingInput(payload: claims)
    }

    /// The compact JWS of a signing input that this keyring's `signingInput` made: signed by
    /// the key its header names, current or retired (the keys stay known until their
    /// receipts have expired); nil when that key is gone.
    func sign(input: [UInt8]) -> [UInt8]? {
        let key = state.withLock { s -> SigningKey? in
            if s.current.made(input) { return s.current }
            if let known = s.retired.first(where: { $0.made(input) }) { return known }
            for record in s.records where record.kid != s.current.kid {
                guard let key = SigningKey(secretKey: record.secretKey, createdAt: record.createdAt, kid: record.kid),
                    key.made(input)
                else { continue }
                s.retired.append(key)
                return key
            }
            return nil
        }
        return key?.sign(input: input)
    }

    /// The key that signs now; may start a background rotation.
    private func signingKey(now: Int64) -> SigningKey {
        let (key, startRotation) = state.withLock { s -> (SigningKey, Bool) in
            guard !s.rotating, isDue(s.current, now: now) else { return (s.current, false) }
            s.rotating = true
            return (s.current, true)
        }
        if startRotation { rotateInBackground(now: now) }
        return key
    }

    private func isDue(_ key: SigningKey, now: Int64) -> Bool {
        configuration.rotationIntervalSeconds > 0 && now - key.createdAt >= configuration.rotationIntervalSeconds * 1000
    }

    private func rotateInBackground(now: Int64) {
        let (_, record) = ReceiptKeyring.newKey(now: now)
        let retireUntil = now + (configuration.receiptLifetimeSeconds + configuration.publishMarginSeconds) * 1000
        let known = state.withLock { $0.current.kid }
        let configuration = self.configuration
        store.write(
            { tx in
                try ReceiptKeyring.install(
                    record, tx: tx, now: now, until: retireUntil, unlessRotatedSince: known,
                    configuration: configuration)
            },
            completion: { [self] result in
                if case .success(let records) = result {
                    adopt(records)
                } else {
                    state.withLock { $0.rotating = false }
                }
            })
    }

    /// Installs `record` as the signing key, retiring the others, under the fleet's lock.
    /// With `unlessRotatedSince`, nothing happens when the newest usable key is no longer
    /// that one and is not due: another edge rotated first.
    private static func install(
        _ record: SigningKeyRecord, tx: any SigningKeyWriting & StoreLocking, now: Int64, until: Int64,
        unlessRotatedSince known: String? = nil, configuration: Configuration = Configuration()
    ) throws(StoreError) -> [SigningKeyRecord] {
        try tx.lock(.signingKeys)
        if let known {
            let existing = try tx.signingKeys()
            if let newest = newestUsable(existing), newest.kid != known,
                !(configuration.rotationIntervalSeconds > 0
                    && now - newest.createdAt >= configuration.rotationIntervalSeconds * 1000)
            {
                return existing
            }
        }
        for var old in try tx.signingKeys() where old.retiredAt == nil {
            old.retiredAt = now
            old.publishUntil = until
            try tx.putSigningKey(old)
        }
        try tx.putSigningKey(record)
        return try tx.signingKeys()
    }

    private static func newKey(now: Int64) -> (SigningKey, SigningKeyRecord) {
        let (key, seed) = SigningKey.generate(createdAt: now)
        return (key, SigningKeyRecord(kid: key.kid, publicKey: key.publicKey, secretKey: seed, createdAt: now))
    }

    /// The newest non-retired key whose secret derives its public key.
    private static func newestUsable(_ records: [SigningKeyRecord]) -> SigningKey? {
        for r in records.filter({ $0.retiredAt == nil }).sorted(by: { ($0.createdAt, $0.kid) > ($1.createdAt, $1.kid) })
        {
            if let key = SigningKey(secretKey: r.secretKey, createdAt: r.createdAt, kid: r.kid),
                key.publicKey == r.publicKey
            {
                return key
            }
        }
        return nil
    }
}
