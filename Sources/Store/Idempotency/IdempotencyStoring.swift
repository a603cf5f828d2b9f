/// The reads of the management API's idempotent answers.
public protocol IdempotencyReading: AnyObject {
    /// A stored management-API idempotent answer.
    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord?
}

/// The writes of the management API's idempotent answers, inside a write body.
public protocol IdempotencyWriting: IdempotencyReading {
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError)
}
