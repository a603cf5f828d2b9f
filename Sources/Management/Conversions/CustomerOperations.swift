import Core
import Model
import Store

/// The workspace's customers and their leads and sales (issue 25, item 5; decision 0024):
/// `GET /api/v1/customers`, `GET /api/v1/customers/{externalId}` (its click, link, leads and
/// sales), `DELETE /api/v1/customers/{externalId}` (erasure) and `GET /api/v1/events`.
enum CustomerOperations {
    /// Events shown on a customer's page, oldest first.
    static let maxEventsShown = 200
    /// The prefix an erased customer's external ID takes, before its own id.
    static let erasedPrefix = CustomerErasure.prefix

    static func list(_ call: ManagementCall, _ reader: any ConversionReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let rows = try reader.customers(after: page.cursor, limit: page.limit + 1)
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.id : nil
        return ManagementAnswer(200, ResourceJSON.page(items.map(CustomerJSON.customer), nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any ConversionReading & LinkReading, _ env: ManagementEnvironment)
        throws
        -> ManagementAnswer
    {
        let customer = try existing(call.parameter("externalId"), reader)
        let events = try reader.conversionEvents(customerId: customer.id, limit: maxEventsShown)
        let link = try customer.linkId.flatMap { id throws(StoreError) in try reader.link(id: id) }
        return ManagementAnswer(200, CustomerJSON.detail(customer, link: link, events: events))
    }

    /// Erasure: the name, email and avatar go, the external ID becomes `erased_<id>` (the
    /// workspace's own ID of a person no longer names the row), and its events lose them
    /// too: their event IDs, the caller's texts and stored answers (`CustomerErasure.scrub`),
    /// as do their webhooks' payloads in the outbox, every endpoint's and whatever their
    /// state (decision 0028, "Erasure"), in this same transaction. The events, their
    /// amounts and their attribution stay: counts and revenue are kept.
    static func erase(
        _ call: ManagementCall, _ tx: any ConversionWriting & WebhookWriting, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let customer = try existing(call.parameter("externalId"), tx)
        // By webhook-id: the outbox rows are rewritten in the order the delivery threads
        // write their outcomes (`WebhookDispatcher.record`), so the two never deadlock.
        let events = try tx.conversionEvents(customerId: customer.id, limit: Int.max)
            .map { (messageId: WebhookEvent.messageId(conversion: $0), event: $0) }.sorted {
                $0.messageId < $1.messageId
            }
        for (messageId, event) in events {
            let scrubbed = CustomerErasure.scrub(event, of: customer)
            try tx.rewriteConversionEvent(scrubbed)
            // The webhook's payload is this answer: made again from the erased one. Not
            // skipped when no endpoint wants leads now: a disabled endpoint keeps its rows.
            try tx.replaceWebhookBody(
                messageId: messageId, body: WebhookEvent.conversionCreated(scrubbed, appId: nil).body)
        }
        _ = try tx.eraseCustomer(id: customer.id, externalId: CustomerErasure.externalId(of: customer), now: call.now)
        return ManagementAnswer(200, .object([("id", .string(customer.id)), ("erased", .bool(true))]))
    }

    static func events(_ call: ManagementCall, _ reader: any ConversionReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        var type: ConversionType?
        if let text = call.query["type"] {
            guard let t = ConversionType(rawValue: text) else {
                throw ManagementError.malformed(FieldProblem("type", "must be lead or sale"))
            }
            type = t
        }
        let linkId = call.query["linkId"]
        if let linkId, linkId.isEmpty || linkId.utf8.count > 255 {
            throw ManagementError.malformed(FieldProblem("linkId", "must be a link's id (1 to 255 characters)"))
        }
        let rows = try reader.conversionEvents(type: type, linkId: linkId, after: page.cursor, limit: page.limit + 1)
        let items = Array(rows.prefix(page.limit))
        let next = rows.count > page.limit ? items.last?.id : nil
        return ManagementAnswer(200, ResourceJSON.page(items.map(CustomerJSON.event), nextCursor: next))
    }

    static func existing(_ externalId: String, _ reader: any ConversionReading) throws -> Customer {
        guard let customer = try reader.customer(externalId: externalId) else {
            throw ManagementError.notFound("No customer has the external ID \(externalId).")
        }
        return customer
    }
}
