import Model
import Store

/// The resolver's tests keep no customers: their reads and writes fail
/// (`MemoryAccess.notKept`). Leads and sales are kept as events, for a link's counts
/// (`VariantCountsContract`): inserted as SQLite inserts them (a taken id, `eventId` or
/// key inserts nothing), found by `eventId` and key.
extension MemoryAccess {
    func conversionClick(id: String) throws(StoreError) -> Click? { throw Self.notKept("conversions") }
    func customer(externalId: String) throws(StoreError) -> Customer? { throw Self.notKept("conversions") }
    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent? {
        s.conversions.values.first { $0.eventId == eventId }
    }
    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent? {
        s.conversions.values.first { $0.idempotencyKeyHash == idempotencyKeyHash }
    }
    func upsertCustomer(_ customer: Customer) throws(StoreError) -> Customer { throw Self.notKept("conversions") }
    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool {
        var inserted = false
        try mutate { st in
            let taken = st.conversions.values.contains {
                $0.id == event.id || $0.eventId == event.eventId || $0.idempotencyKeyHash == event.idempotencyKeyHash
            }
            if !taken {
                st.conversions[event.id] = event
                inserted = true
            }
        }
        return inserted
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
