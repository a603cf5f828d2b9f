import Model

/// Webhook endpoints, the outbox and its attempts (decision 0028), as SQLite's.
extension PGQueries {
    static let webhookEndpointColumns = SQLiteQueries.webhookEndpointColumns
    static let webhookDeliveryColumns = SQLiteQueries.webhookDeliveryColumns
    static let webhookAttemptColumns = SQLiteQueries.webhookAttemptColumns
    static let selectWebhookEndpoint = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints WHERE id = $1"
    static let selectWebhookEndpoints = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints ORDER BY id"
    static let selectWebhookDelivery =
        "SELECT \(webhookDeliveryColumns) FROM webhook_outbox WHERE endpoint_id = $1 AND message_id = $2"
    static let selectWebhookDeliveries = """
        SELECT \(webhookDeliveryColumns) FROM webhook_outbox
        WHERE endpoint_id = $1 AND ($2::text IS NULL OR message_id < $2) ORDER BY message_id DESC LIMIT $3
        """
    static let selectWebhookAttempts = """
        SELECT \(webhookAttemptColumns) FROM webhook_attempts
        WHERE endpoint_id = $1 AND message_id = $2 ORDER BY number
        """
    /// Through the due index (the count) and the pending rows' creation index (the oldest).
    static let selectWebhookDepth = """
        SELECT (SELECT count(*) FROM webhook_outbox WHERE state = 'pending'),
               (SELECT min(created_at) FROM webhook_outbox WHERE state = 'pending')
        """

    static let selectWebhookTestTimes = """
        SELECT created_at FROM webhook_outbox
        WHERE endpoint_id = $1 AND type = 'webhook.test' AND message_id >= $2
        """
    static let selectWebhookSecretKeyIds = SQLiteQueries.selectWebhookSecretKeyIds

    static func decodeWebhookEndpoint(_ r: PGResult, _ i: Int) -> WebhookEndpoint {
        WebhookEndpoint(
            id: r.text(i, 0), url: r.text(i, 1), description: r.optionalText(i, 2),
            eventTypes: WebhookEndpoint.parseStoredList(r.text(i, 3)).compactMap(WebhookEventType.init(rawValue:)),
            appIds: r.optionalText(i, 4).map(WebhookEndpoint.parseStoredList),
            linkIds: r.optionalText(i, 5).map(WebhookEndpoint.parseStoredList), enabled: r.bool(i, 6),
            disabledReason: r.optionalText(i, 7), disabledAt: r.optionalInt(i, 8), secret: r.text(i, 9),
            previousSecret: r.optionalText(i, 10), previousSecretExpiresAt: r.optionalInt(i, 11),
            failingSince: r.optionalInt(i, 12), createdAt: r.int(i, 13), updatedAt: r.int(i, 14))
    }

    static func decodeWebhookDelivery(_ r: PGResult, _ i: Int) throws(StoreError) -> WebhookDelivery {
        guard let type = WebhookEventType(rawValue: r.text(i, 2)) else {
            throw ModelCodec.corrupt("webhook_outbox.type")
        }
        guard let state = WebhookDelivery.State(rawValue: r.text(i, 5)) else {
            throw ModelCodec.corrupt("webhook_outbox.state")
        }
        return WebhookDelivery(
            endpointId: r.text(i, 0), messageId: r.text(i, 1), type: type, body: r.bytes(i, 3), createdAt: r.int(i, 4),
            state: state, attempts: Int(r.int(i, 6)), scheduledAttempts: Int(r.int(i, 7)),
            scheduleStartedAt: r.int(i, 8), nextAttemptAt: r.optionalInt(i, 9),
            lastStatus: r.optionalInt(i, 10).map(Int.init), lastError: r.optionalText(i, 11),
            deliveredAt: r.optionalInt(i, 12), updatedAt: r.int(i, 13))
    }

    static func decodeWebhookAttempt(_ r: PGResult, _ i: Int) -> WebhookAttempt {
        WebhookAttempt(
            endpointId: r.text(i, 0), messageId: r.text(i, 1), number: Int(r.int(i, 2)), at: r.int(i, 3),
            durationMilliseconds: r.int(i, 4), status: r.optionalInt(i, 5).map(Int.init), error: r.optionalText(i, 6),
            answer: r.optionalText(i, 7), node: r.text(i, 8))
    }

    func webhookEndpoint(id: String) throws(StoreError) -> WebhookEndpoint? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        return try Self.first(db.run("pgq_webhook_endpoint", Self.selectWebhookEndpoint, p), Self.decodeWebhookEndpoint)
    }

    func webhookEndpoints() throws(StoreError) -> [WebhookEndpoint] {
        try willQuery()
        return try Self.all(
            db.run("pgq_webhook_endpoints", Self.selectWebhookEndpoints, PGParams()), Self.decodeWebhookEndpoint)
    }

    func webhookDelivery(endpointId: String, messageId: String) throws(StoreError) -> WebhookDelivery? {
        try willQuery()
        var p = PGParams()
        p.text(endpointId)
        p.text(messageId)
        return try Self.first(db.run("pgq_webhook_delivery", Self.selectWebhookDelivery, p), Self.decodeWebhookDelivery)
    }

    func webhookDeliveries(endpointId: String, before: String?, limit: Int) throws(StoreError) -> [WebhookDelivery] {
        try willQuery()
        var p = PGParams()
        p.text(endpointId)
        p.text(before)
        p.int(Int64(limit))
        return try Self.all(
            db.run("pgq_webhook_deliveries", Self.selectWebhookDeliveries, p), Self.decodeWebhookDelivery)
    }

    func webhookAttempts(endpointId: String, messageId: String) throws(StoreError) -> [WebhookAttempt] {
        try willQuery()
        var p = PGParams()
        p.text(endpointId)
        p.text(messageId)
        return try Self.all(db.run("pgq_webhook_attempts", Self.selectWebhookAttempts, p), Self.decodeWebhookAttempt)
    }

    func webhookOutboxDepth() throws(StoreError) -> (pending: Int, oldestCreatedAt: Int64?) {
        try willQuery()
        let r = try db.run("pgq_webhook_depth", Self.selectWebhookDepth, PGParams())
        return (Int(r.int(0, 0)), r.optionalInt(0, 1))
    }

    func webhookTestEventTimes(endpointId: String, since: Int64) throws(StoreError) -> [Int64] {
        try willQuery()
        var p = PGParams()
        p.text(endpointId)
        p.text(WebhookEvent.idBound(milliseconds: since))
        return try Self.all(db.run("pgq_webhook_test_times", Self.selectWebhookTestTimes, p)) { r, i in r.int(i, 0) }
    }

    func webhookSecretKeyIds() throws(StoreError) -> [String] {
        try willQuery()
        return try Self.all(db.run("pgq_webhook_secret_keys", Self.selectWebhookSecretKeyIds, PGParams())) { r, i in
            r.text(i, 0)
        }
    }
}
