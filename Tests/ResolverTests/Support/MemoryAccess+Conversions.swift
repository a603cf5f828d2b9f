import Model
import Store

/// The resolver's tests keep no conversions: nothing is found, nothing is written.
extension MemoryAccess {
    func conversionClick(id: String) throws(StoreError) -> Click? { nil }
    func customer(externalId: String) throws(StoreError) -> Customer? { nil }
    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent? { nil }
    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent? { nil }
    func upsertCustomer(_ customer: Customer) throws(StoreError) -> Customer { customer }
    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool { false }
    func customers(after: String?, limit: Int) throws(StoreError) -> [Customer] { [] }
    func conversionEvents(customerId: String, limit: Int) throws(StoreError) -> [ConversionEvent] { [] }
    func conversionEvents(type: ConversionType?, linkId: String?, after: String?, limit: Int) throws(StoreError)
        -> [ConversionEvent]
    { [] }
    func eraseCustomer(id: String, externalId: String, now: Int64) throws(StoreError) -> Bool { false }
    func rewriteConversionEvent(_ event: ConversionEvent) throws(StoreError) {}
}
