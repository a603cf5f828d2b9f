import Core
import HTTPMessages
import Model
import Store

/// `POST /api/v1/track/open`, everything but the sockets.
///
/// Call `resolve` on the event loop whose index is `input.readerLoop`. Cheap
/// refusals (405, headers, key, body, app state, 429) complete synchronously,
/// before `resolve` returns, without touching the store's writer. Everything
/// else runs one body on the writer (group commit) and completes after the
/// commit: on the writer thread, or on the request's loop through
/// `resumeOnLoop` when the edge provides it (then the answer is put together on
/// the loops, not on the single writer thread). A receipt is signed before the
/// write: on the loop when the answer is known there (an app link), by the write
/// body when only it can decide the match (handoff, probabilistic), so that the
/// open event is stored with its receipt and replays of it return the receipt.
public final class Resolver: Sendable {
    /// Hands `work` to event loop `loop`; the edge implements it with its loop's task queue.
    public typealias LoopHop = @Sendable (_ loop: Int, _ work: @escaping @Sendable () -> Void) -> Void

    let store: any Store
    let keyring: ReceiptKeyring
    let signer: ReceiptSigner
    let hasher: SourceAddressHasher
    let configuration: Configuration
    let limiters: ResolverLimiters
    /// Shares the buckets with the other nodes on the database; nil alone (SQLite).
    let fleetSync: FleetSync?
    let keyCache: KeyCache
    /// Each loop's own open-id sequence (no lock shared between loops).
    let openIds: PerLoop<ULIDGenerator>
    let httpsActive: @Sendable (String) -> Bool
    let resumeOnLoop: LoopHop?

    /// - Parameters:
    ///   - httpsActive: whether a valid certificate for a host is loaded now
    ///     (probabilistic matching needs an HTTPS-active domain). Must be thread-safe.
    ///   - resumeOnLoop: where write completions continue; nil continues on the writer thread.
    ///   - fleet: where the rate limits are shared with the other nodes on the same
    ///     database (PostgreSQL); when it is shared, a sync thread starts here and runs
    ///     until `stopFleetSync()`.
    public init(
        store: any Store, keyring: ReceiptKeyring, sourceAddressHasher: SourceAddressHasher,
        configuration: Configuration, httpsActive: @escaping @Sendable (String) -> Bool,
        resumeOnLoop: LoopHop? = nil, fleet: any FleetCounters = SoloCounters()
    ) {
        _ = Sodium.ready
        self.store = store
        self.keyring = keyring
        self.signer = ReceiptSigner(issuer: configuration.publicURL, keyring: keyring)
        self.hasher = sourceAddressHasher
        self.configuration = configuration
        let limiters = ResolverLimiters(
            configuration.limits, keys: RateLimitKeys(seed: fleet.keySeed), fleet: fleet.isShared,
            syncIntervalMicros: configuration.fleetSyncMilliseconds * 1000)
        self.limiters = limiters
        if fleet.isShared {
            let report = configuration.onInternalError
            let sync = FleetSync(
                limiters: limiters, counters: fleet, intervalMilliseconds: configuration.fleetSyncMilliseconds,
                onError: { message in report?(message) })
            sync.start()
            fleetSync = sync
        } else {
            fleetSync = nil
        }
        self.keyCache = KeyCache(loops: store.readerCount, ttlMilliseconds: configuration.keyCacheMilliseconds)
        self.openIds = PerLoop(count: store.readerCount) { ULIDGenerator() }
        self.httpsActive = httpsActive
        self.resumeOnLoop = resumeOnLoop
    }

    /// Stops sharing the rate limits with the fleet (at shutdown); the buckets then act
    /// as a lone node's.
    public func stopFleetSync() {
        fleetSync?.stop()
    }

    /// What the fleet rate-limit sync did so far; nil when nothing is shared (SQLite).
    public var fleetSyncStatistics: FleetSyncStatistics? { fleetSync?.statistics() }

    /// The rate limits of the other track calls, kept beside the resolver's and shared with
    /// the fleet the same way (decision 0027).
    public enum TrackLimit: Sendable {
        /// `track/click` per source address.
        case clickAddress
        /// `track/click` per browser key (its id).
        case clickKey
        /// `track/lead` and `track/sale` per secret key (its id).
        case conversionKey
    }

    /// Takes one request of `key` from bucket `limit`: nil when admitted, else the whole
    /// seconds to wait (`Retry-After`, at least 1). Thread-safe; for the event loops.
    public func admit(_ limit: TrackLimit, _ key: String, nowMillis: Int64) -> Int? {
        let limiter: RateLimiter
        switch limit {
        case .clickAddress: limiter = limiters.clickAddress
        case .clickKey: limiter = limiters.clickKey
        case .conversionKey: limiter = limiters.conversionKey
        }
        return limiter.acquire(limiters.keys.key(key), nowMillis: nowMillis).map(ResolverLimiters.retryAfterSeconds)
    }

    /// Resolves one request; `completion` is called exactly once.
    public func resolve(_ input: ResolveInput, completion: @escaping @Sendable (HTTPResponse) -> Void) {
        let headers = HeaderValues(input.request.headers)
        let requestId = RequestID.resolve(headers)
        let address = SourceAddressHasher.normalize(input.sourceAddress)
        let context: ResolutionContext
        do {
            context = try prepare(input, headers: headers, address: address)
        } catch {
            completion(ResponseFactory.error(error, requestId: requestId))
            return
        }
        submit(context, requestId: requestId, address: address, loop: input.readerLoop, attempt: 1, completion)
    }

    private func submit(
        _ context: ResolutionContext, requestId: String, address: String, loop: Int, attempt: Int,
        _ completion: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        // Concurrently: the body's rows are guarded by unique keys and conditional updates
        // (a race it cannot see is a `.conflict`, run again below), so a backend with
        // several connections may run it on any of them (decision 0023).
        store.writeConcurrently(
            { tx in try Resolution.run(context, in: tx) },
            completion: { [self] result in
                switch result {
                case .success(let outcome):
                    continueOnLoop(loop) {
                        completion(self.finish(outcome, context, requestId: requestId, address: address))
                    }
                case .failure(.conflict) where attempt < configuration.maxWriteAttempts:
                    // A race this body could not see; the next run sees the winner.
                    submit(
                        context, requestId: requestId, address: address, loop: loop, attempt: attempt + 1, completion)
                case .failure(let error):
                    configuration.onInternalError?("track/open write failed: \(error)")
                    continueOnLoop(loop) {
                        completion(ResponseFactory.error(ResolverError.failure(of: error), requestId: requestId))
                    }
                }
            })
    }

    private func continueOnLoop(_ loop: Int, _ work: @escaping @Sendable () -> Void) {
        if let resumeOnLoop { resumeOnLoop(loop, work) } else { work() }
    }

    private func finish(_ outcome: Outcome, _ c: ResolutionContext, requestId: String, address: String)
        -> HTTPResponse
    {
        switch outcome {
        case .replay(let stored, let receipt), .live(let stored, let receipt):
            // On the loop: an unsigned receipt is signed here (decision 0023).
            return ResponseFactory.success(stored: stored, receipt: signer.complete(receipt), requestId: requestId)
        case .rejected(let error, let abuse):
            // An unavailable handoff takes from the address's failure bucket; once that
            // is spent, such refusals become 429 (and only they: valid tokens still match).
            if abuse, let wait = limiters.failures.acquire(limiters.keys.key(address), nowMillis: c.now) {
                return ResponseFactory.error(
                    .rateLimited(retryAfterSeconds: ResolverLimiters.retryAfterSeconds(wait)), requestId: requestId)
            }
            return ResponseFactory.error(error, requestId: requestId)
        }
    }
}
