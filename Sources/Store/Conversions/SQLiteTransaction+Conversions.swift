import Model

/// The conversions' writes (decision 0024).
extension SQLiteTransaction {
    static let upsertCustomerSQL = """
        INSERT INTO customers (\(customerColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
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
        let stored = try db.queryFirst(
            Self.upsertCustomerSQL,
            { s in
                s.bind(1, customer.id)
                s.bind(2, customer.externalId)
                s.bind(3, customer.name)
                s.bind(4, customer.email)
                s.bind(5, customer.avatar)
                s.bind(6, customer.clickId)
                s.bind(7, customer.linkId)
                s.bind(8, customer.createdAt)
                s.bind(9, customer.updatedAt)
            }, row: Self.decodeCustomer)
        guard let stored else { throw .backend(code: 0, message: "customer upsert returned no row") }
        return stored
    }

    static let insertConversionSQL = """
        INSERT INTO conversion_events (\(conversionColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
        ON CONFLICT DO NOTHING
        """

    func insertConversionEvent(_ event: ConversionEvent) throws(StoreError) -> Bool {
        let changed = try db.execute(Self.insertConversionSQL) { s in
            s.bind(1, event.id)
            s.bind(2, event.type.rawValue)
            s.bind(3, event.eventId)
            s.bind(4, event.idempotencyKeyHash)
            s.bind(5, event.requestHash)
            s.bind(6, event.eventName)
            s.bind(7, event.customerId)
            s.bind(8, event.clickId)
            s.bind(9, event.linkId)
            s.bind(10, event.amount)
            s.bind(11, event.currency)
            s.bind(12, event.paymentProcessor)
            s.bind(13, event.invoiceId)
            s.bind(14, event.metadata)
            s.bind(15, event.occurredAt)
            s.bind(16, event.createdAt)
            s.bind(17, event.response)
            s.bind(18, event.variant.map(Int64.init))
        }
        // Its link's daily count, in this transaction, written with the batch's counts.
        if changed > 0 { counts.links.addConversion(event) }
        return changed > 0
    }

    static let eraseCustomerSQL = """
        UPDATE customers SET external_id = ?2, name = NULL, email = NULL, avatar = NULL, updated_at = ?3
        WHERE id = ?1
        """

    func eraseCustomer(id: String, externalId: String, now: Int64) throws(StoreError) -> Bool {
        try db.execute(Self.eraseCustomerSQL) { s in
            s.bind(1, id)
            s.bind(2, externalId)
            s.bind(3, now)
        } > 0
    }

    static let rewriteConversionEventSQL = """
        UPDATE conversion_events SET event_id = ?2, idempotency_key_hash = ?3, request_hash = ?4, event_name = ?5,
            payment_processor = ?6, invoice_id = ?7, metadata = ?8, response = ?9
        WHERE id = ?1
        """

    func rewriteConversionEvent(_ event: ConversionEvent) throws(StoreError) {
        try db.execute(Self.rewriteConversionEventSQL) { s in
            s.bind(1, event.id)
            s.bind(2, event.eventId)
            s.bind(3, event.idempotencyKeyHash)
            s.bind(4, event.requestHash)
            s.bind(5, event.eventName)
            s.bind(6, event.paymentProcessor)
            s.bind(7, event.invoiceId)
            s.bind(8, event.metadata)
            s.bind(9, event.response)
        }
    }
}
