import Model

/// The reads of the conversions' tables (issue 25): customers, leads and sales, and the
/// clicks they name. Part of every `StoreReader`; the track calls read them inside their
/// write body, on the writer's connection.
public protocol ConversionReading: AnyObject {
    /// The click with this id (`biq_clk_` + ULID), found through the time in its id
    /// (clicks are kept in time order, with no index on their id on SQLite: decision
    /// 0024): nil for an id the store does not hold, or of a malformed shape.
    func conversionClick(id: String) throws(StoreError) -> Click?
    func customer(externalId: String) throws(StoreError) -> Customer?
    /// The lead or sale with this `eventId`, whatever its type.
    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent?
    /// The lead or sale recorded with the `Idempotency-Key` of this SHA-256.
    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent?

    /// Customers ordered by id, after `after` (the previous page's last id).
    func customers(after: String?, limit: Int) throws(StoreError) -> [Customer]
    /// The customer's leads and sales, oldest first (by `occurredAt`, then id), at most `limit`.
    func conversionEvents(customerId: String, limit: Int) throws(StoreError) -> [ConversionEvent]
    /// Leads and sales in the order they were recorded (`createdAt`, then id), of `type` and
    /// of link `linkId` when given, after the event `after` (the previous page's last id):
    /// a range of an index whatever the page's depth.
    func conversionEvents(type: ConversionType?, linkId: String?, after: String?, limit: Int) throws(StoreError)
        -> [ConversionEvent]
}

/// The writes of the conversions' tables, inside a write body. Both are single
/// statements kept right by unique keys, so that the same event sent to two edges at
/// once (PostgreSQL) is written once.
public protocol ConversionWriting: ConversionReading {
    /// Inserts `customer`, or updates the one with its `externalId`: `name`, `email` and
    /// `avatar` when given (non-nil), the click and link only when the stored customer
    /// has none (the first attributed click stays). Returns the stored row.
    func upsertCustomer(_ customer: Customer) throws(StoreError) -> Customer
    /// Inserts `event` unless its `eventId` or `idempotencyKeyHash` is taken; false (and
    /// nothing written) then. On PostgreSQL a concurrent insert of the same keys is
    /// waited for, so that the row that won can be read right after.
    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool
    /// Erasure: the customer's name, email and avatar cleared, its external ID replaced by
    /// `externalId`; its events stay. False when there is no customer `id`.
    func eraseCustomer(id: String, externalId: String, now: Int64) throws(StoreError) -> Bool
    /// Replaces what the caller gave of the stored event `event.id` by `event`'s: its event
    /// ID, the hashes of its `Idempotency-Key` and request, name, payment processor,
    /// invoice ID, metadata and answer (erasure takes the customer out of them).
    func rewriteConversionEvent(_ event: ConversionEvent) throws(StoreError)
}
