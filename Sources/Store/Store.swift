import Core
import Model

/// Everything the edge and the resolver remember, behind one protocol so that a
/// PostgreSQL backend can replace SQLite without the layers above noticing.
///
/// Threading model:
/// - **Reads** on the hot path go through `reader(loop:)`: one reader per event
///   loop, used only from that loop's thread, with its own connection and cached
///   statements. Domains, apps and links come from in-memory caches first.
/// - **Writes** go through `write(_:completion:)`: the body runs on the single
///   writer thread inside the current group-commit batch (inside its own
///   savepoint), and `completion` runs on the writer thread once the batch is
///   durable. A body that throws rolls back only its own savepoint and fails only
///   its own request. A failed COMMIT fails every request of that batch.
/// - A body may run more than once (the SQLite store runs a batch without
///   savepoints and, when a body throws, rolls back and reruns the batch without
///   it): keep every effect of a body inside the transaction it is given, and
///   do not keep that transaction beyond the body.
public protocol Store: AnyObject, Sendable {
    /// The reader owned by event loop `loop` (0..<readerCount). Not thread-safe:
    /// call only from that loop's thread.
    func reader(loop: Int) -> any StoreReader
    var readerCount: Int { get }

    /// Runs `body` in the next group-commit batch; `completion` after the commit.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    )

    /// `write` for a body that returns nothing, such as the visit path's click and
    /// handoff; the same contract. A store may run these without the generic job
    /// (see `SQLiteStore`); the default forwards to the generic `write`.
    func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    )

    /// `write` for a body whose rows are kept right by unique keys and conditional updates
    /// rather than by the order of writes, and that changes no catalog row (the
    /// resolver's: an open event, its instance, a handoff's claim, a consumed click; a
    /// race it cannot see throws `.conflict` and is run again). A store may run such
    /// bodies on several connections at once, beside the other writes (PostgreSQL's
    /// concurrent writers, decision 0023); the default is `write`.
    func writeConcurrently<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    )

    /// Blocking form of `write` for the CLI, the management API's slow path and tests.
    func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws(StoreError)
        -> T

    /// `write` for a body that may refuse with its caller's own error type: when the
    /// body throws a `Refusal`, its work is rolled back as for any throw, the batch's
    /// other writes go on, and only this `completion` gets `.refused` with that value
    /// (also when the store ran the batch again without this body). A `StoreError`, or
    /// any other error, is `.store` as in `write`; so `Refusal` is never `StoreError`.
    func write<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    )

    /// `write(refusing:_:completion:)` for a body that `writeConcurrently` could take:
    /// rows kept right by unique keys and conditional updates, no catalog row changed
    /// (leads and sales, decision 0024). `lockOrder` names the row the body locks first
    /// and holds (`WriteJob.lockOrder`): bodies of one batch run in that order, so
    /// concurrent batches do not deadlock over them. The default is `write(refusing:)`.
    func writeConcurrently<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        lockOrder: String?,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    )

    /// Blocking form of `write(refusing:_:completion:)`, for the CLI's `apply` and tests.
    func writeAndWait<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) throws(WriteError<Refusal>) -> T

    /// Deletes clicks, click counts (the links' daily ones of days wholly before
    /// `olderThan` too) and open events older than `olderThan`, handoffs and console
    /// sessions past expiry, in small batches; returns how many rows went.
    /// Retention is approximate at its edges: a backend may keep a row it could
    /// delete a little longer (the SQLite store deletes clicks by the time in
    /// their id, whole hours of counts, and handoffs by the time in their key),
    /// but never deletes a handoff before its expiry.
    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int

    /// Stops the writer after draining queued writes; further writes fail.
    func close()

    /// Changes (after the commit, before the writer's completions run) whenever a
    /// publishable key is added, rotated, revoked or deleted, also by another process
    /// (noticed within `externalChangePollMilliseconds`). A cache of key records is
    /// current while this is unchanged.
    var publishableKeysVersion: UInt64 { get }
}

/// Reads. Implemented by per-loop readers and by transactions (which see their own writes).
extension Store {
    public func writeConcurrently<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        write(body, completion: completion)
    }

    public func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        genericWrite(body, completion: completion)
    }

    public func writeConcurrently<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        lockOrder: String?,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        write(refusing: refusing, body, completion: completion)
    }

    /// Waits on the calling thread for `write(refusing:_:completion:)`.
    public func writeAndWait<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) throws(WriteError<Refusal>) -> T {
        let waiter = ResultWaiter<T, WriteError<Refusal>>()
        write(refusing: refusing, body) { result in waiter.deliver(result) }
        return try waiter.wait().get()
    }

    /// Inside a generic context `write` resolves to the generic requirement, not to
    /// the Void one that calls this.
    private func genericWrite<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        write(body, completion: completion)
    }
}

public protocol StoreReader: AnyObject, CertificateReading, ConversionReading, ClientClickReading, WebhookReading {
    func domain(_ hostname: String) throws(StoreError) -> Domain?
    func domains() throws(StoreError) -> [Domain]
    func app(_ id: String) throws(StoreError) -> MobileApp?
    func apps() throws(StoreError) -> [MobileApp]
    /// The apps attached to a domain, for association documents.
    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp]

    /// The link at `https://<host>/<key>` (exact, case-sensitive key), from the link cache.
    func link(host: String, key: String) throws(StoreError) -> Link?
    func link(id: String) throws(StoreError) -> Link?
    /// Links ordered by id; `after` is the last id of the previous page.
    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link]
    /// The claims of the links on `domain` that have a mobile payload, ordered by key:
    /// what a domain's apple-app-site-association needs when several iOS apps share it.
    func linkClaims(domain: String) throws(StoreError) -> [LinkClaim]
    /// A number that changes whenever a link on `host` may have been created, changed
    /// or deleted since it was last read (an association file built from the domain's
    /// links is current while it stays equal); nil when the reader keeps no such count,
    /// which means: read the links again every time.
    func linksVersion(host: String) -> UInt64?

    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord?
    func secretKeys() throws(StoreError) -> [SecretKeyRecord]
    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord?
    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord]

    /// A scan in the SQLite store (no index on click ids, decision 0010): tools and tests only.
    func click(id: String) throws(StoreError) -> Click?
    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff?

    func openEvent(id: String) throws(StoreError) -> OpenEvent?
    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent?
    /// By the SHA-256 of the Idempotency-Key. A store may keep no hash for an event
    /// whose key is its eventId (the SQLite store, decision 0008): such an event is
    /// found by `openEvent(app:eventId:idempotencyKey:keyHash:)`, not here.
    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent?
    /// The app's open event with `eventId`, else the one recorded with the
    /// Idempotency-Key `idempotencyKey` (whose SHA-256 is `keyHash`): what the
    /// resolver's idempotency rule looks up. Each is unique per app.
    func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]) throws(StoreError)
        -> OpenEvent?
    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance?

    func signingKeys() throws(StoreError) -> [SigningKeyRecord]

    /// A stored management-API idempotent answer.
    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord?

    /// Click counts (including `countPreview`'s) by whole UTC hours: the hour that
    /// holds `since` counts in full. Opens are counted from `since` exactly;
    /// `recent` newest opens at or after `since`.
    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics

    /// Link `link`'s clicks and opens counted on the UTC days `fromDay...throughDay` (days
    /// since the epoch, `LinkAnalytics.day(of:)`), from the per-link daily counts: the cost
    /// depends on the days and the distinct values, not on the number of clicks.
    func linkAnalytics(link: String, fromDay: Int64, throughDay: Int64) throws(StoreError) -> LinkAnalytics

    // MARK: the operator console

    /// Links whose key starts with `keyPrefix` (byte order, case-sensitive, as keys are
    /// matched), on `domain` when given, ordered by key then id, after `after` (the key and
    /// id of the previous page's last link): a range of an index on the key, so that a page
    /// costs its rows whatever the prefix matches and however deep the page.
    func searchLinks(keyPrefix: String, domain: String?, after: (key: String, id: String)?, limit: Int)
        throws(StoreError) -> [Link]
    /// The link's newest clicks, newest first, at most `limit`: through an index on the
    /// clicks' link.
    func recentClicks(link: String, limit: Int) throws(StoreError) -> [Click]
    /// The newest open events that named the link, newest first, at most `limit`.
    func recentOpenEvents(link: String, limit: Int) throws(StoreError) -> [OpenEvent]
    /// Clicks and opens per UTC day of every link, and the `topLinks` links with the most
    /// clicks, over `fromDay...throughDay`. Reads every daily count of the range, one day
    /// per statement (a long count holds no snapshot for long: SQLite's checkpoints go
    /// on): for a background thread, never an event loop.
    func workspaceActivity(fromDay: Int64, throughDay: Int64, topLinks: Int) throws(StoreError) -> WorkspaceActivity
    /// The console session or sign-in link whose token has this SHA-256, expired or not,
    /// when its workspace key exists and is not revoked: a session lasts while its key does.
    func consoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession?
}

/// Writes, inside the writer's transaction. Reads through it see the writes before them.
public protocol StoreTransaction: StoreReader, CertificateWriting, ConversionWriting, ClientClickWriting,
    WebhookWriting
{
    var now: Int64 { get }

    func insertClick(_ click: Click) throws(StoreError)
    /// Counts a link-preview bot's visit in analytics (kind `.previewBot`) without
    /// storing a click. Nothing is counted without an app (`appId` nil).
    func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError)
    func insertHandoff(_ handoff: Handoff) throws(StoreError)
    /// Binds an unclaimed handoff to an instance; false if another instance already holds it.
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool
    /// The resolver's claim: binds the handoff to `instance` and `openId` when it is
    /// unclaimed, of `app` and `platform`, unexpired at `now` (`now < expiresAt`)
    /// and, when `linkId` is given, of that link; returns it then, its metadata
    /// as the stored JSON text. Nil (and nothing written) otherwise: read it with
    /// `handoff(tokenHash:)` to learn why.
    func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView?
    /// Marks an iOS click as used by a probabilistic match; false if it already was.
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool
    /// iOS clicks of `app` on `domain` at or after `since` (at most an hour back),
    /// from `sourceHash`, not yet consumed by a probabilistic match, with `osVersion`
    /// equal when given; newest first, at most `limit`. A transaction's question: the
    /// SQLite store answers it from the writer's memory (decision 0009).
    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click]

    /// Fails with `.conflict` when the app already has this eventId or idempotency-key hash.
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError)
    /// `insertOpenEvent` with the Idempotency-Key itself (`event.idempotencyKeyHash`
    /// is its SHA-256), so that a store can keep no hash when the key is the
    /// eventId. Fails with `.conflict` when the app already has this eventId or
    /// this key, in either form.
    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String) throws(StoreError)
    func upsertAppInstance(_ instance: AppInstance) throws(StoreError)
    /// The resolver's two first reads, which a store may answer in one round trip: the
    /// app instance (`appInstance`) and the idempotency look-up
    /// (`openEvent(app:eventId:idempotencyKey:keyHash:)`).
    func resolutionState(app: String, instance: String, eventId: String, idempotencyKey: String, keyHash: [UInt8])
        throws(StoreError) -> (instance: AppInstance?, event: OpenEvent?)
    /// `upsertAppInstance(instance)` (when given) then
    /// `insertOpenEvent(event, idempotencyKey:)`, which a store may write in one statement.
    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String, instance: AppInstance?) throws(StoreError)

    func putDomain(_ domain: Domain) throws(StoreError)
    /// Creates a domain; `.conflict(.domain)` when the hostname is taken (`domain_taken`).
    func insertDomain(_ domain: Domain) throws(StoreError)
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool
    func putApp(_ app: MobileApp) throws(StoreError)
    /// Deletes the app, revokes its publishable keys, detaches its domains and
    /// turns its links into plain web links. Returns those links as they now are (the
    /// caller reports them: `link.updated`), nil (and nothing done) for an unknown app.
    func deleteApp(_ id: String) throws(StoreError) -> [Link]?
    func putLink(_ link: Link) throws(StoreError)
    func deleteLink(id: String) throws(StoreError) -> Bool

    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError)
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError)
    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError)
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError)
    func putConsoleSession(_ session: ConsoleSession) throws(StoreError)
    /// Deletes the session or sign-in link with this token hash; returns it as it was
    /// (whatever its key), nil when there was none. A one-time link is used by deleting it.
    func deleteConsoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession?

    /// Holds `lock` until the transaction ends: writers in other processes sharing the
    /// database (several edges on PostgreSQL) that take the same lock wait. A no-op where
    /// one writer is all there is (SQLite's single writer per file).
    func lock(_ lock: StoreLock) throws(StoreError)
}

/// The fleet-wide locks write bodies can take (`StoreTransaction.lock`).
public enum StoreLock: Int64, Sendable {
    /// Creating or rotating the receipt signing key: once for the fleet, not once per node.
    case signingKeys = 0x6269_716C_6910
    /// Making a secret every node shares.
    case fleetSecrets = 0x6269_716C_6911
}

extension StoreReader {
    /// Pages through `links(domain:after:limit:)`, for stores without a narrower query.
    public func linkClaims(domain: String) throws(StoreError) -> [LinkClaim] {
        var claims: [LinkClaim] = []
        var after: String?
        while true {
            let page = try links(domain: domain, after: after, limit: 1_000)
            claims += page.compactMap(\.claim)
            guard page.count == 1_000, let last = page.last else { break }
            after = last.id
        }
        return claims.sorted { $0.key < $1.key }
    }

    /// Readers without a link cache keep no count: callers read the links each time.
    public func linksVersion(host: String) -> UInt64? { nil }

    /// For stores that index every key hash.
    public func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]) throws(StoreError)
        -> OpenEvent?
    {
        if let byEvent = try openEvent(app: app, eventId: eventId) { return byEvent }
        return try openEvent(app: app, idempotencyKeyHash: keyHash)
    }
}

extension StoreTransaction {
    /// One writer per database: nothing to wait for.
    public func lock(_ lock: StoreLock) throws(StoreError) {}

    /// The two reads one after the other.
    public func resolutionState(
        app: String, instance: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]
    ) throws(StoreError) -> (instance: AppInstance?, event: OpenEvent?) {
        let found = try appInstance(app: app, instance: instance)
        return (found, try openEvent(app: app, eventId: eventId, idempotencyKey: idempotencyKey, keyHash: keyHash))
    }

    /// The two writes one after the other.
    public func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String, instance: AppInstance?)
        throws(StoreError)
    {
        if let instance { try upsertAppInstance(instance) }
        try insertOpenEvent(event, idempotencyKey: idempotencyKey)
    }

    public func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String) throws(StoreError) {
        try insertOpenEvent(event)
    }

    /// Read, check, then `claimHandoff`, for transactions without a one-step claim.
    public func claimHandoff(
        tokenHash: [UInt8], app: String, platform: Platform, now: Int64, linkId: String?, instance: String,
        openId: String
    ) throws(StoreError) -> HandoffView? {
        guard let h = try handoff(tokenHash: tokenHash), h.claimedByInstance == nil, h.appId == app,
            h.platform == platform, now < h.expiresAt, linkId.map({ $0 == h.snapshot.linkId }) ?? true,
            try claimHandoff(tokenHash: tokenHash, instance: instance, openId: openId)
        else { return nil }
        return HandoffView(h)
    }

    /// For transactions that keep no analytics counters: previews go uncounted.
    public func countPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) throws(StoreError) {}

    /// Check-then-put, for transactions that do not implement the insert themselves.
    public func insertDomain(_ domain: Domain) throws(StoreError) {
        if try self.domain(domain.hostname) != nil { throw .conflict(.domain) }
        try putDomain(domain)
    }
}

/// A management-API write answered once and replayed for the same key.
public struct IdempotencyRecord: Sendable, Equatable {
    public var scope: String
    public var keyHash: [UInt8]
    public var requestHash: [UInt8]
    public var status: Int
    public var body: [UInt8]
    public var createdAt: Int64

    public init(scope: String, keyHash: [UInt8], requestHash: [UInt8], status: Int, body: [UInt8], createdAt: Int64) {
        self.scope = scope
        self.keyHash = keyHash
        self.requestHash = requestHash
        self.status = status
        self.body = body
        self.createdAt = createdAt
    }
}

/// Counts for a Mobile App's analytics page.
public struct AppAnalytics: Sendable, Equatable {
    /// Clicks by platform and kind.
    public var clicks: [ClickCount]
    /// Opens by match type and first-open flag.
    public var opens: [OpenCount]
    /// Newest first.
    public var recent: [OpenEvent]

    public init(clicks: [ClickCount], opens: [OpenCount], recent: [OpenEvent]) {
        self.clicks = clicks
        self.opens = opens
        self.recent = recent
    }

    public struct ClickCount: Sendable, Equatable {
        public var platform: VisitorPlatform
        public var kind: ClickKind
        public var count: Int
        public init(platform: VisitorPlatform, kind: ClickKind, count: Int) {
            self.platform = platform
            self.kind = kind
            self.count = count
        }
    }

    public struct OpenCount: Sendable, Equatable {
        public var matchedBy: MatchType
        public var firstOpen: Bool
        public var count: Int
        public init(matchedBy: MatchType, firstOpen: Bool, count: Int) {
            self.matchedBy = matchedBy
            self.firstOpen = firstOpen
            self.count = count
        }
    }
}
