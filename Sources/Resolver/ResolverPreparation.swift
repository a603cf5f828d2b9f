import Core
import Model
import Store

extension Resolver {
    /// Step 1 of the contract's order, on the event loop: everything that can be
    /// decided without the writer. Throws the refusal, or returns what the write
    /// body needs.
    ///
    /// Order: method; the source address's bucket; SDK headers; bearer key (an
    /// invalid one takes from the address's failure bucket, or is 429 when that
    /// is spent); the app's bucket; content type and JSON; schema; app ownership,
    /// state and platform; headers against body; instance and token buckets.
    func prepare(_ input: ResolveInput, headers h: HeaderValues, address: String) throws(ResolverError)
        -> ResolutionContext
    {
        guard input.request.method == .post else { throw .methodNotAllowed }
        let now = input.now
        let addressKey = limiters.keys.key(address)
        try limit(limiters.address.acquire(addressKey, nowMillis: now))

        let headers = try RequestHeaders.validate(h)
        let reader = store.reader(loop: input.readerLoop)
        // Another edge on the same database may have rotated the signing key.
        keyring.refreshIfChanged(reader: reader)
        let key: PublishableKeyRecord
        do {
            key = try MobileKey.authenticate(
                h.authorization, loop: input.readerLoop, now: now, keysVersion: store.publishableKeysVersion,
                reader: reader, cache: keyCache)
        } catch {
            // Only an invalid key meets the failure bucket: a valid key from the same
            // address (another app behind the same NAT) is never refused by it.
            if error == .invalidMobileKey { try limit(limiters.failures.acquire(addressKey, nowMillis: now)) }
            throw error
        }
        try limit(limiters.app.acquire(limiters.keys.key(key.appId), nowMillis: now))

        guard ContentType.isJSON(h.contentType) else {
            throw .invalidRequest("Content-Type must be application/json.")
        }
        let request = try OpenRequestValidator.decode(input.request.body)

        guard request.appId == key.appId, let app = try read({ () throws(StoreError) in try reader.app(request.appId) })
        else {
            // The key may come from the key cache while its app was just deleted (which
            // revokes the key): ask the store once more, so that the answer is 401.
            if request.appId == key.appId {
                let fresh = try read({ () throws(StoreError) in try reader.publishableKey(hash: key.keyHash) })
                if fresh?.isUsable(at: now) != true { throw .invalidMobileKey }
            }
            throw .resourceNotFound("The app does not exist or does not belong to this mobile key.")
        }
        guard app.enabled else { throw .mobileLinkingUnavailable }
        switch request.platform {
        case .ios:
            guard let ios = app.ios else { throw .platformNotConfigured }
            guard ios.sdkEnabled else { throw .mobileSDKUnavailable }
        case .android:
            guard let android = app.android else { throw .platformNotConfigured }
            guard android.sdkEnabled else { throw .mobileSDKUnavailable }
        }
        guard headers.sdk == request.platform else {
            throw .headerMismatch("X-Biq-SDK must equal the body's platform.")
        }
        guard headers.sdkVersion == request.sdkVersion else {
            throw .headerMismatch("X-Biq-SDK-Version must equal the body's sdkVersion.")
        }

        try limit(limiters.instance.acquire(limiters.keys.key(app.id, request.appInstanceId), nowMillis: now))
        // Any token text, well-formed or not, has a bucket of its own and takes
        // part in the canonical request; only a well-formed one is looked up.
        let anyTokenHash = request.handoffToken.map(HandoffToken.hash)
        if let hash = anyTokenHash {
            try limit(limiters.token.acquire(limiters.keys.key(bytes: hash), nowMillis: now))
        }
        let handoff: HandoffInput =
            anyTokenHash.map { hash in HandoffToken.isWellFormed(request.handoffToken!) ? .token(hash) : .malformed }
            ?? .none
        // A malformed token can only be refused: with the failure bucket spent, say
        // 429 here instead of asking the writer (a well-formed one may be valid and goes on).
        if case .malformed = handoff { try limit(limiters.failures.check(addressKey, nowMillis: now)) }

        let appLink = try request.deepLink.flatMap { (link: String) throws(ResolverError) -> Match? in
            try read { () throws(StoreError) in try AppLinkMatcher.match(link, app: app, reader: reader) }
        }
        let plan = try probabilisticPlan(request, app: app, address: address, now: now, reader: reader)

        let keyHash = SHA256.hash(headers.idempotencyKey)
        return ResolutionContext(
            request: request, app: app, idempotencyKey: headers.idempotencyKey, idempotencyKeyHash: keyHash,
            requestHash: CanonicalRequest.hash(request, idempotencyKeyHash: keyHash, tokenHash: anyTokenHash),
            handoff: handoff, appLink: appLink, probabilistic: plan, now: now,
            openId: openIds.with(input.readerLoop) {
                $0.make(prefix: Identifier.openPrefix, milliseconds: UInt64(max(0, now)))
            }, signer: signer)
    }

    /// Probabilistic evaluation would run only for an iOS first open without
    /// exact input, allowed by both the app and the request (contract
    /// obligation 4); only then is the domain judged.
    private func probabilisticPlan(
        _ r: OpenRequest, app: MobileApp, address: String, now: Int64, reader: any CatalogReading
    ) throws(ResolverError) -> ProbabilisticPlan? {
        guard r.platform == .ios, r.firstOpen, r.probabilisticAllowed, !r.hasExactInput, let ios = app.ios,
            ios.probabilisticFallback
        else { return nil }
        var eligible: String?
        if let d = r.domain, app.domains.contains(d),
            try read({ () throws(StoreError) in try reader.domain(d)?.verified ?? false }), httpsActive(d)
        {
            eligible = d
        }
        let minutes = Int64(min(max(ios.probabilisticWindowMinutes, 1), 60))
        return ProbabilisticPlan(
            eligibleDomain: eligible, sourceHash: hasher.hash(address), since: now - minutes * 60_000)
    }

    private func limit(_ waitMicros: Int64?) throws(ResolverError) {
        if let waitMicros { throw .rateLimited(retryAfterSeconds: ResolverLimiters.retryAfterSeconds(waitMicros)) }
    }

    /// A store read on the loop; its failure is an internal error.
    func read<T>(_ body: () throws(StoreError) -> T) throws(ResolverError) -> T {
        do {
            return try body()
        } catch {
            configuration.onInternalError?("track/open read failed: \(error)")
            throw ResolverError.failure(of: error)
        }
    }
}
