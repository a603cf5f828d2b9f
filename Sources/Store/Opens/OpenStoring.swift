import Model

/// The reads of the resolver's rows: open events and app instances.
public protocol OpenReading: AnyObject {
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
}

/// The writes of open events and app instances, inside a write body.
public protocol OpenWriting: OpenReading {
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
}

extension OpenReading {
    /// For stores that index every key hash.
    public func openEvent(app: String, eventId: String, idempotencyKey: String, keyHash: [UInt8]) throws(StoreError)
        -> OpenEvent?
    {
        if let byEvent = try openEvent(app: app, eventId: eventId) { return byEvent }
        return try openEvent(app: app, idempotencyKeyHash: keyHash)
    }
}

extension OpenWriting {
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
}
