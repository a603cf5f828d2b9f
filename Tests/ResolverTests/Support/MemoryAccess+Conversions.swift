import Model
import Store

/// The resolver's tests keep no conversions: every read or write of them fails
/// (`MemoryAccess.notKept`).
extension MemoryAccess {
    func conversionClick(id: String) throws(StoreError) -> Click? { throw Self.notKept("conversions") }
    func customer(externalId: String) throws(StoreError) -> Customer? { throw Self.notKept("conversions") }
    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent? { throw Self.notKept("conversions") }
    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent? {
        throw Self.notKept("conversions")
    }
    func upsertCustomer(_ customer: Customer) throws(StoreError) -> Customer { throw Self.notKept("conversions") }
    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool {
        throw Self.notKept("conversions")
    }
    func customers(after: String?, limit: Int) throws(StoreError) -> [Customer] { throw Self.notKept("conversions") }
    func conversionEvents(customerId: String, limit: Int) throws(StoreError) -> [ConversionEvent] {
        throw Self.notKept("conversions")
    }
    func conversionEvents(type: ConversionType?, linkId: String?, after: String?, limit: Int) throws(StoreError)
        -> [ConversionEvent]
    { throw Self.notKept("conversions") }
    func eraseCustomer(id: String, externalId: String, now: Int64) throws(StoreError) -> Bool {
        throw Self.notKept("conversions")
    }
    func rewriteConversionEvent(_ event: ConversionEvent) throws(StoreError) { throw Self.notKept("conversions") }
}
