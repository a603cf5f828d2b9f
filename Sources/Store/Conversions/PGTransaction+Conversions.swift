import Model

/// The conversions' writes (decision 0024): single statements that other nodes writing
/// the same customer or event at once wait for, rather than duplicate.
extension PGTransaction {
    static let upsertCustomerSQL = """
        INSERT INTO customers (\(customerColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (external_id) DO UPDATE SET
            name = coalesce(excluded.name, customers.name),
            email = coalesce(excluded.email, customers.email),
            avatar = coalesce(excluded.avatar, customers.avatar),
            link_id = CASE WHEN customers.click_id IS NULL THEN excluded.link_id ELSE customers.link_id END,
            click_id = coalesce(customers.click_id, excluded.click_id),
            updated_at = excluded.updated_at
        RETURNING \(customerColumns)
        """

    func upsertCustomer(_ customer: Customer) throws(StoreError) -> Customer {
        try willQuery()
        var p = PGParams(capacity: 9)
        p.text(customer.id)
        p.text(customer.externalId)
        p.text(customer.name)
        p.text(customer.email)
        p.text(customer.avatar)
        p.text(customer.clickId)
        p.text(customer.linkId)
        p.int(customer.createdAt)
        p.int(customer.updatedAt)
        guard let stored = try Self.first(db.run("pgt_upsert_customer", Self.upsertCustomerSQL, p), Self.decodeCustomer)
        else { throw .backend(code: 0, message: "customer upsert returned no row") }
        return stored
    }

    static let insertConversionSQL = """
        INSERT INTO conversion_events (\(conversionColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
        ON CONFLICT DO NOTHING
        """

    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams(capacity: 18)
        p.text(event.id)
        p.text(event.type.rawValue)
        p.text(event.eventId)
        p.bytes(event.idempotencyKeyHash)
        p.bytes(event.requestHash)
        p.text(event.eventName)
        p.text(event.customerId)
        p.text(event.clickId)
        p.text(event.linkId)
        p.int(event.amount)
        p.text(event.currency)
        p.text(event.paymentProcessor)
        p.text(event.invoiceId)
        p.text(event.metadata)
        p.int(event.occurredAt)
        p.int(event.createdAt)
        p.bytes(event.response)
        p.int(event.variant.map(Int64.init))
        let inserted = try db.run("pgt_insert_conversion", Self.insertConversionSQL, p).affectedRows > 0
        // Its link's daily count: held to the end of the batch (`flushCounts`), where the
        // count rows are locked in key order after every job's customer lock.
        if inserted { counts.links.addConversion(event) }
        return inserted
    }

    static let eraseCustomerSQL = """
        UPDATE customers SET external_id = $2, name = NULL, email = NULL, avatar = NULL, updated_at = $3
        WHERE id = $1
        """

    func eraseCustomer(id: String, externalId: String, now: Int64) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(id)
        p.text(externalId)
        p.int(now)
        return try db.run("pgt_erase_customer", Self.eraseCustomerSQL, p).affectedRows > 0
    }

    static let rewriteConversionEventSQL = """
        UPDATE conversion_events SET event_id = $2, idempotency_key_hash = $3, request_hash = $4, event_name = $5,
            payment_processor = $6, invoice_id = $7, metadata = $8, response = $9
        WHERE id = $1
        """

    func rewriteConversionEvent(_ event: ConversionEvent) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(event.id)
        p.text(event.eventId)
        p.bytes(event.idempotencyKeyHash)
        p.bytes(event.requestHash)
        p.text(event.eventName)
        p.text(event.paymentProcessor)
        p.text(event.invoiceId)
        p.text(event.metadata)
        p.bytes(event.response)
        try db.run("pgt_conversion_rewrite", Self.rewriteConversionEventSQL, p)
    }
}
