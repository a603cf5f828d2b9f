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
}
