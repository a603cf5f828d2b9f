import Model

/// Webhook endpoints, the outbox and its attempts (decision 0028).
extension SQLiteQueries {
    static let webhookEndpointColumns = """
        id, url, description, event_types, app_ids, link_ids, enabled, disabled_reason, disabled_at, secret,
        previous_secret, previous_secret_expires_at, failing_since, created_at, updated_at
        """
    static let webhookDeliveryColumns = """
        endpoint_id, message_id, type, body, created_at, state, attempts, scheduled_attempts, schedule_started_at,
        next_attempt_at, last_status, last_error, delivered_at, updated_at
        """
    static let webhookAttemptColumns = "endpoint_id, message_id, number, at, duration_ms, status, error, answer, node"

    static let selectWebhookEndpoint = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints WHERE id = ?1"
    static let selectWebhookEndpoints = "SELECT \(webhookEndpointColumns) FROM webhook_endpoints ORDER BY id"
    static let selectWebhookDelivery =
        "SELECT \(webhookDeliveryColumns) FROM webhook_outbox WHERE endpoint_id = ?1 AND message_id = ?2"
    static let selectWebhookDeliveries = """
        SELECT \(webhookDeliveryColumns) FROM webhook_outbox
        WHERE endpoint_id = ?1 AND (?2 IS NULL OR message_id < ?2) ORDER BY message_id DESC LIMIT ?3
        """
    static let selectWebhookAttempts = """
        SELECT \(webhookAttemptColumns) FROM webhook_attempts
        WHERE endpoint_id = ?1 AND message_id = ?2 ORDER BY number
        """
    /// Through the due index (the count) and the pending rows' creation index (the oldest).
    static let selectWebhookDepth = """
        SELECT (SELECT count(*) FROM webhook_outbox WHERE state = 'pending'),
               (SELECT min(created_at) FROM webhook_outbox WHERE state = 'pending')
        """

    /// The partial index's terms (`webhook_outbox_tests`): the type is a literal, so that
    /// the planner can prove the index applies.
    static let selectWebhookTestTimes = """
        SELECT created_at FROM webhook_outbox
        WHERE endpoint_id = ?1 AND type = 'webhook.test' AND message_id >= ?2
        """
    static let selectWebhookSecretKeyIds = "SELECT id FROM webhook_secret_keys ORDER BY created_at, id"

    static func decodeWebhookEndpoint(_ s: SQLiteStatement) throws(StoreError) -> WebhookEndpoint {
        var types: [WebhookEventType] = []
        for name in WebhookEndpoint.parseStoredList(s.text(3)) {
            // A type a newer binary knows and this one does not is skipped.
            if let t = WebhookEventType(rawValue: name) { types.append(t) }
        }
        return WebhookEndpoint(
            id: s.text(0), url: s.text(1), description: s.optionalText(2), eventTypes: types,
            appIds: s.optionalText(4).map(WebhookEndpoint.parseStoredList),
            linkIds: s.optionalText(5).map(WebhookEndpoint.parseStoredList), enabled: s.bool(6),
            disabledReason: s.optionalText(7), disabledAt: s.optionalInt64(8), secret: s.text(9),
            previousSecret: s.optionalText(10), previousSecretExpiresAt: s.optionalInt64(11),
            failingSince: s.optionalInt64(12), createdAt: s.int64(13), updatedAt: s.int64(14))
    }

    static func decodeWebhookDelivery(_ s: SQLiteStatement) throws(StoreError) -> WebhookDelivery {
        guard let type = WebhookEventType(rawValue: s.text(2)) else { throw ModelCodec.corrupt("webhook_outbox.type") }
        guard let state = WebhookDelivery.State(rawValue: s.text(5)) else {
            throw ModelCodec.corrupt("webhook_outbox.state")
        }
        return WebhookDelivery(
            endpointId: s.text(0), messageId: s.text(1), type: type, body: s.blob(3), createdAt: s.int64(4),
            state: state, attempts: s.int(6), scheduledAttempts: s.int(7), scheduleStartedAt: s.int64(8),
            nextAttemptAt: s.optionalInt64(9), lastStatus: s.optionalInt64(10).map(Int.init),
            lastError: s.optionalText(11), deliveredAt: s.optionalInt64(12), updatedAt: s.int64(13))
    }

    static func decodeWebhookAttempt(_ s: SQLiteStatement) -> WebhookAttempt {
        WebhookAttempt(
            endpointId: s.text(0), messageId: s.text(1), number: s.int(2), at: s.int64(3),
            durationMilliseconds: s.int64(4), status: s.optionalInt64(5).map(Int.init), error: s.optionalText(6),
            answer: s.optionalText(7), node: s.text(8))
    }

    func webhookEndpoint(id: String) throws(StoreError) -> WebhookEndpoint? {
        try db.queryFirst(
            Self.selectWebhookEndpoint, { $0.bind(1, id) },
            row: Self.decodeWebhookEndpoint)
    }

    func webhookEndpoints() throws(StoreError) -> [WebhookEndpoint] {
        try db.queryAll(
            Self.selectWebhookEndpoints, row: Self.decodeWebhookEndpoint)
    }

    func webhookDelivery(endpointId: String, messageId: String) throws(StoreError) -> WebhookDelivery? {
        try db.queryFirst(
            Self.selectWebhookDelivery,
            { s in
                s.bind(1, endpointId)
                s.bind(2, messageId)
            }, row: Self.decodeWebhookDelivery)
    }

    func webhookDeliveries(endpointId: String, before: String?, limit: Int) throws(StoreError) -> [WebhookDelivery] {
        try db.queryAll(
            Self.selectWebhookDeliveries,
            { s in
                s.bind(1, endpointId)
                s.bind(2, before)
                s.bind(3, limit)
            }, row: Self.decodeWebhookDelivery)
    }

    func webhookAttempts(endpointId: String, messageId: String) throws(StoreError) -> [WebhookAttempt] {
        try db.queryAll(
            Self.selectWebhookAttempts,
            { s in
                s.bind(1, endpointId)
                s.bind(2, messageId)
            }, row: Self.decodeWebhookAttempt)
    }

    func webhookOutboxDepth() throws(StoreError) -> (pending: Int, oldestCreatedAt: Int64?) {
        try db.queryFirst(
            Self.selectWebhookDepth,
            row: { s in (s.int(0), s.optionalInt64(1)) }) ?? (0, nil)
    }

    func webhookTestEventTimes(endpointId: String, since: Int64) throws(StoreError) -> [Int64] {
        let bound = WebhookEvent.idBound(milliseconds: since)
        return try db.queryAll(
            Self.selectWebhookTestTimes,
            { s in
                s.bind(1, endpointId)
                s.bind(2, bound)
            }, row: { $0.int64(0) })
    }

    func webhookSecretKeyIds() throws(StoreError) -> [String] {
        try db.queryAll(Self.selectWebhookSecretKeyIds, row: { $0.text(0) })
    }
}
