import Core
import Model

/// Customers, leads and sales, and the clicks they name (decision 0024).
extension PGQueries {
    /// The click's day partition, named by the time in its id (within the slack a loop's
    /// clock may have against the writer's), through `clicks_id`.
    static let selectConversionClick = """
        SELECT \(clickColumns) FROM clicks WHERE id = $1 AND at BETWEEN $2 AND $3 LIMIT 1
        """

    func conversionClick(id: String) throws(StoreError) -> Click? {
        guard let ms = SQLiteQueries.clickTime(id) else { return nil }
        try willQuery()
        var p = PGParams()
        p.text(id)
        p.int(ms - SQLiteQueries.clickTimeSlack)
        p.int(ms + SQLiteQueries.clickTimeSlack)
        return try Self.first(db.run("pgq_conversion_click", Self.selectConversionClick, p), Self.decodeClick)
    }

    static let customerColumns = "id, external_id, name, email, avatar, click_id, link_id, created_at, updated_at"
    static let selectCustomer = "SELECT \(customerColumns) FROM customers WHERE external_id = $1"

    static func decodeCustomer(_ r: PGResult, _ i: Int) -> Customer {
        Customer(
            id: r.text(i, 0), externalId: r.text(i, 1), name: r.optionalText(i, 2), email: r.optionalText(i, 3),
            avatar: r.optionalText(i, 4), clickId: r.optionalText(i, 5), linkId: r.optionalText(i, 6),
            createdAt: r.int(i, 7), updatedAt: r.int(i, 8))
    }

    func customer(externalId: String) throws(StoreError) -> Customer? {
        try willQuery()
        var p = PGParams()
        p.text(externalId)
        return try Self.first(db.run("pgq_customer", Self.selectCustomer, p), Self.decodeCustomer)
    }

    static let conversionColumns = SQLiteQueries.conversionColumns
    static let selectConversionByEventId = "SELECT \(conversionColumns) FROM conversion_events WHERE event_id = $1"
    static let selectConversionByKey =
        "SELECT \(conversionColumns) FROM conversion_events WHERE idempotency_key_hash = $1"

    static func decodeConversion(_ r: PGResult, _ i: Int) throws(StoreError) -> ConversionEvent {
        guard let type = ConversionType(rawValue: r.text(i, 1)) else {
            throw ModelCodec.corrupt("conversion_events.type")
        }
        return ConversionEvent(
            id: r.text(i, 0), type: type, eventId: r.text(i, 2), idempotencyKeyHash: r.bytes(i, 3),
            requestHash: r.bytes(i, 4), eventName: r.text(i, 5), customerId: r.text(i, 6),
            clickId: r.optionalText(i, 7), linkId: r.optionalText(i, 8), amount: r.optionalInt(i, 9),
            currency: r.optionalText(i, 10), paymentProcessor: r.optionalText(i, 11), invoiceId: r.optionalText(i, 12),
            metadata: r.optionalText(i, 13), occurredAt: r.int(i, 14), createdAt: r.int(i, 15),
            response: r.bytes(i, 16), variant: r.optionalInt(i, 17).map { Int($0) })
    }

    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent? {
        try willQuery()
        var p = PGParams()
        p.text(eventId)
        return try Self.first(
            db.run("pgq_conversion_by_event", Self.selectConversionByEventId, p), Self.decodeConversion)
    }

    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent? {
        try willQuery()
        var p = PGParams()
        p.bytes(idempotencyKeyHash)
        return try Self.first(db.run("pgq_conversion_by_key", Self.selectConversionByKey, p), Self.decodeConversion)
    }

    // MARK: lists

    static let selectCustomersPage = """
        SELECT \(customerColumns) FROM customers WHERE id COLLATE "C" > $1 ORDER BY id COLLATE "C" LIMIT $2
        """

    func customers(after: String?, limit: Int) throws(StoreError) -> [Customer] {
        try willQuery()
        var p = PGParams()
        p.text(after ?? "")
        p.int(Int64(limit))
        return try Self.all(db.run("pgq_customers_page", Self.selectCustomersPage, p), Self.decodeCustomer)
    }

    static let selectCustomerEvents = """
        SELECT \(conversionColumns) FROM conversion_events WHERE customer_id = $1
        ORDER BY occurred_at, id COLLATE "C" LIMIT $2
        """

    func conversionEvents(customerId: String, limit: Int) throws(StoreError) -> [ConversionEvent] {
        try willQuery()
        var p = PGParams()
        p.text(customerId)
        p.int(Int64(limit))
        return try Self.all(db.run("pgq_customer_events", Self.selectCustomerEvents, p), Self.decodeConversion)
    }

    static let selectEventsPage = """
        SELECT \(conversionColumns) FROM conversion_events
        WHERE (created_at, substr(id, 9) COLLATE "C") > ($2, substr($3::text, 9) COLLATE "C")
            AND ($1::text IS NULL OR type = $1::text)
        ORDER BY created_at, substr(id, 9) COLLATE "C" LIMIT $4
        """
    static let selectLinkEventsPage = """
        SELECT \(conversionColumns) FROM conversion_events
        WHERE link_id = $5 AND (created_at, substr(id, 9) COLLATE "C") > ($2, substr($3::text, 9) COLLATE "C")
            AND ($1::text IS NULL OR type = $1::text)
        ORDER BY created_at, substr(id, 9) COLLATE "C" LIMIT $4
        """
    static let selectEventTime = "SELECT created_at FROM conversion_events WHERE id = $1"

    func conversionEvents(type: ConversionType?, linkId: String?, after: String?, limit: Int) throws(StoreError)
        -> [ConversionEvent]
    {
        try willQuery()
        var from: (Int64, String) = (-1, "")
        if let after {
            var q = PGParams()
            q.text(after)
            let at = try Self.first(db.run("pgq_event_time", Self.selectEventTime, q)) { r, i in r.int(i, 0) }
            from = (at ?? (ULID.milliseconds(after.dropFirst(8)).map { Int64($0) } ?? -1), after)
        }
        var p = PGParams()
        p.text(type?.rawValue)
        p.int(from.0)
        p.text(from.1)
        p.int(Int64(limit))
        if let linkId {
            p.text(linkId)
            return try Self.all(
                db.run("pgq_link_events_page", Self.selectLinkEventsPage, p), Self.decodeConversion)
        }
        return try Self.all(db.run("pgq_events_page", Self.selectEventsPage, p), Self.decodeConversion)
    }
}
