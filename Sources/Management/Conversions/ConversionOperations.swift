import Core
import Model
import Store

/// `POST /api/v1/track/lead` and `/api/v1/track/sale` (issue 25, decision 0024): one write
/// body on the store's writer, durable before the answer.
///
/// Idempotency is the event's own: one event per `eventId` (whatever its type) and one
/// per `Idempotency-Key`, both unique keys of `conversion_events`. The same request again
/// (same type and canonical body) gets the stored answer, 201 with
/// `Idempotent-Replayed: true`; another request with either identifier gets 409
/// `idempotency_conflict`. The insert is conditional, so that the same event sent to two
/// edges at once (PostgreSQL) is one row: the loser reads the winner's and answers as a
/// replay.
enum ConversionOperations {
    static let customerPrefix = "biq_cus_"

    static func lead(
        _ call: ManagementCall, _ tx: any ConversionWriting & LinkReading & WebhookWriting,
        _ environment: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        try record(.lead, call, tx)
    }

    static func sale(
        _ call: ManagementCall, _ tx: any ConversionWriting & LinkReading & WebhookWriting,
        _ environment: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        try record(.sale, call, tx)
    }

    static func record(
        _ type: ConversionType, _ call: ManagementCall, _ tx: any ConversionWriting & LinkReading & WebhookWriting
    ) throws
        -> ManagementAnswer
    {
        let input = try ConversionInput.parse(type, call.body ?? [], now: call.now)
        guard let key = call.idempotencyKey else { throw ManagementError.idempotencyKeyRequired }
        let keyHash = SHA256.hash(key)
        if let answer = try replay(input, keyHash: keyHash, call: call, tx) { return answer }

        var click: Click?
        if let id = input.clickId {
            guard let found = try tx.conversionClick(id: id) else { throw ManagementError.invalidClickId }
            click = found
        }
        let known = try tx.customer(externalId: input.customerExternalId)
        guard let clickId = click?.id ?? known?.clickId else { throw ManagementError.attributionRequired }
        let linkId = click != nil ? click?.linkId : known?.linkId
        let customer = try tx.upsertCustomer(
            Customer(
                id: customerPrefix + ULID.make(), externalId: input.customerExternalId, name: input.customerName,
                email: input.customerEmail, avatar: input.customerAvatar, clickId: clickId, linkId: linkId,
                createdAt: call.now, updatedAt: call.now))
        let link = try linkId.flatMap { id throws(StoreError) in try tx.link(id: id) }
        let arm = try click != nil ? click?.variant : customerArm(customer, clickId: clickId, tx)
        var event = ConversionEvent(
            id: type.idPrefix + ULID.make(), type: type, eventId: input.eventId, idempotencyKeyHash: keyHash,
            requestHash: input.requestHash, eventName: input.eventName, customerId: customer.id, clickId: clickId,
            linkId: linkId, amount: input.amount, currency: input.currency, paymentProcessor: input.paymentProcessor,
            invoiceId: input.invoiceId, metadata: input.metadata, occurredAt: input.occurredAt ?? call.now,
            createdAt: call.now, response: [], variant: arm)
        let body = ConversionJSON.answer(event: event, click: clickId, link: link, customer: customer)
        event.response = body.jsonBytes
        guard try tx.insertConversionEvent(event) else {
            // Another node wrote this event (or key) first and committed: answer as it did.
            if let answer = try replay(input, keyHash: keyHash, call: call, tx) { return answer }
            throw StoreError.conflict(.eventId)
        }
        try tx.enqueueWebhookEvent(WebhookEvent.conversionCreated(event, appId: link?.mobile?.appId))
        return ManagementAnswer(201, ConversionJSON.withRequestId(body, call.requestId))
    }

    /// The arm of the A/B test that the customer's click got (decision 0032), for an event
    /// without a `clickId` of its own: the click's, while retention keeps it, else the one
    /// an earlier event of that click recorded (events are not pruned). Nil for a click of
    /// no arm.
    static func customerArm(_ customer: Customer, clickId: String, _ tx: any ConversionReading) throws(StoreError)
        -> Int?
    {
        if let click = try tx.conversionClick(id: clickId) { return click.variant }
        let earlier = try tx.conversionEvents(customerId: customer.id, limit: earlierEventsRead)
        return earlier.first { $0.clickId == clickId && $0.variant != nil }?.variant
    }

    /// How many of a customer's first events `customerArm` reads for an arm when the click
    /// is gone: its lead is usually the first.
    static let earlierEventsRead = 20

    /// The customer a lead or sale will lock (its upsert holds the row to the commit):
    /// the writer orders a batch's conversions by it (`Store.writeConcurrently`). Nil
    /// for a body without one, which is refused before it locks anything.
    static func lockOrder(_ call: ManagementCall) -> String? {
        guard case .string(let id)? = call.body?.first(where: { $0.0 == "customerExternalId" })?.1 else { return nil }
        return id
    }

    /// The stored answer when this request was already answered; 409 when its key or
    /// `eventId` was used by another request; nil when neither is known.
    static func replay(_ input: ConversionInput, keyHash: [UInt8], call: ManagementCall, _ tx: any ConversionReading)
        throws -> ManagementAnswer?
    {
        let byKey = try tx.conversionEvent(idempotencyKeyHash: keyHash)
        let byEventId = try tx.conversionEvent(eventId: input.eventId)
        guard let stored = byKey ?? byEventId else { return nil }
        if let byKey, let byEventId, byKey.id != byEventId.id {
            throw ManagementError.eventConflict(field: "eventId")
        }
        guard stored.requestHash == input.requestHash else {
            throw ManagementError.eventConflict(field: byKey != nil ? "Idempotency-Key" : "eventId")
        }
        let body = (try? JSONParser.parse(stored.response)) ?? .object([])
        var answer = ManagementAnswer(201, ConversionJSON.withRequestId(body, call.requestId))
        answer.replayed = true
        return answer
    }
}
