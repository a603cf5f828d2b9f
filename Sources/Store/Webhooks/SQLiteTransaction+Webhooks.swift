import Core
import Model

/// The webhooks' writes (decision 0028).
extension SQLiteTransaction {
    static let enqueueWebhookSQL = """
        INSERT INTO webhook_outbox (endpoint_id, message_id, type, body, created_at, state, attempts,
                                    scheduled_attempts, schedule_started_at, next_attempt_at, updated_at)
        SELECT id, ?1, ?2, ?3, ?4, 'pending', 0, 0, ?4, ?4, ?4 FROM webhook_endpoints
        WHERE enabled = 1 AND instr(event_types, ?5) > 0 AND (app_ids IS NULL OR instr(app_ids, ?6) > 0)
          AND (link_ids IS NULL OR instr(link_ids, ?7) > 0)
        ON CONFLICT DO NOTHING
        """
    static let enqueueWebhookForSQL = """
        INSERT INTO webhook_outbox (endpoint_id, message_id, type, body, created_at, state, attempts,
                                    scheduled_attempts, schedule_started_at, next_attempt_at, updated_at)
        VALUES (?5, ?1, ?2, ?3, ?4, 'pending', 0, 0, ?4, ?4, ?4)
        """

    func enqueueWebhookEvent(_ event: WebhookEvent) throws(StoreError) -> Int {
        guard try webhookEventWanted(event.type, appId: event.appId, linkId: event.linkId) else { return 0 }
        let written = try db.execute(Self.enqueueWebhookSQL) { s in
            s.bind(1, event.id)
            s.bind(2, event.type.rawValue)
            s.bind(3, event.body)
            s.bind(4, event.at)
            s.bind(5, " " + event.type.rawValue + " ")
            s.bind(6, event.appId.map { " " + $0 + " " })
            s.bind(7, event.linkId.map { " " + $0 + " " })
        }
        if written > 0 { webhookSignal.raise() }
        return written
    }

    func enqueueWebhookEvent(_ event: WebhookEvent, endpointId: String) throws(StoreError) {
        try db.execute(Self.enqueueWebhookForSQL) { s in
            s.bind(1, event.id)
            s.bind(2, event.type.rawValue)
            s.bind(3, event.body)
            s.bind(4, event.at)
            s.bind(5, endpointId)
        }
        webhookSignal.raise()
    }

    /// Every outbox row's endpoint is in `webhook_endpoints` (deleting one deletes its
    /// rows), so naming them lets the key find the rows: no scan of the outbox.
    static let replaceWebhookBodySQL = """
        UPDATE webhook_outbox SET body = ?2
        WHERE endpoint_id IN (SELECT id FROM webhook_endpoints) AND message_id = ?1
        """

    func replaceWebhookBody(messageId: String, body: [UInt8]) throws(StoreError) -> Int {
        try db.execute(Self.replaceWebhookBodySQL) { s in
            s.bind(1, messageId)
            s.bind(2, body)
        }
    }

    static let putWebhookEndpointSQL = """
        INSERT OR REPLACE INTO webhook_endpoints (\(webhookEndpointColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        """

    func putWebhookEndpoint(_ e: WebhookEndpoint) throws(StoreError) {
        webhookAudience.endpointsChanged()
        // The row replaced may hold a secret as an older version stored it (decision 0031):
        // its bytes are overwritten, not left in the page's free space (Debian's SQLite does
        // so by default; another build might not). Rare writes: the pragma costs nothing.
        let secure = try db.integer("PRAGMA secure_delete")
        if secure == 0 { try db.exec("PRAGMA secure_delete = ON") }
        defer { if secure == 0 { try? db.exec("PRAGMA secure_delete = OFF") } }
        try db.execute(Self.putWebhookEndpointSQL) { s in
            s.bind(1, e.id)
            s.bind(2, e.url)
            s.bind(3, e.description)
            s.bind(4, WebhookEndpoint.storedList(e.eventTypes.map(\.rawValue)))
            s.bind(5, e.appIds.map(WebhookEndpoint.storedList))
            s.bind(6, e.linkIds.map(WebhookEndpoint.storedList))
            s.bind(7, e.enabled)
            s.bind(8, e.disabledReason)
            s.bind(9, e.disabledAt)
            s.bind(10, e.secret)
            s.bind(11, e.previousSecret)
            s.bind(12, e.previousSecretExpiresAt)
            s.bind(13, e.failingSince)
            s.bind(14, e.createdAt)
            s.bind(15, e.updatedAt)
        }
    }

    static let registerWebhookSecretKeySQL =
        "INSERT INTO webhook_secret_keys (id, created_at) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING"

    func registerWebhookSecretKey(id: String, now: Int64) throws(StoreError) {
        try db.execute(Self.registerWebhookSecretKeySQL) { s in
            s.bind(1, id)
            s.bind(2, now)
        }
    }

    /// One writer: the check and the insert cannot interleave with another's.
    func registerFirstWebhookSecretKey(id: String, now: Int64) throws(StoreError) -> [String] {
        if try webhookSecretKeyIds().isEmpty { try registerWebhookSecretKey(id: id, now: now) }
        return try webhookSecretKeyIds()
    }

    static let deleteWebhookEndpointSQL = "DELETE FROM webhook_endpoints WHERE id = ?1"
    static let deleteWebhookOutboxSQL = "DELETE FROM webhook_outbox WHERE endpoint_id = ?1"
    static let deleteWebhookAttemptsSQL = "DELETE FROM webhook_attempts WHERE endpoint_id = ?1"

    func deleteWebhookEndpoint(id: String) throws(StoreError) -> Bool {
        webhookAudience.endpointsChanged()
        let deleted = try db.execute(Self.deleteWebhookEndpointSQL) { $0.bind(1, id) }
        try db.execute(Self.deleteWebhookOutboxSQL) { $0.bind(1, id) }
        try db.execute(Self.deleteWebhookAttemptsSQL) { $0.bind(1, id) }
        return deleted > 0
    }

    /// The due index alone, in order (covering: no row is read that is not leased). The
    /// endpoints left out (busy ones, disabled ones) come as one list.
    static let webhookCandidatesSQL = """
        SELECT endpoint_id, message_id FROM webhook_outbox INDEXED BY webhook_outbox_due
        WHERE state = 'pending' AND next_attempt_at <= ?1 AND (lease_until IS NULL OR lease_until <= ?1)
          AND instr(?3, ' ' || endpoint_id || ' ') = 0
        ORDER BY next_attempt_at LIMIT ?2
        """
    static let webhookLeaseSQL = """
        UPDATE webhook_outbox SET lease_owner = ?3, lease_until = ?4
        WHERE endpoint_id = ?1 AND message_id = ?2 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= ?5)
        RETURNING \(webhookDeliveryColumns)
        """

    func claimWebhookDeliveries(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, perEndpoint: Int, excluding: Set<String>,
        leaving: (WebhookEndpoint) -> Bool
    ) throws(StoreError) -> [WebhookDelivery] {
        let left = excluding.union(try webhookEndpoints().filter { !$0.enabled || leaving($0) }.map(\.id))
        let candidates = try db.queryAll(
            Self.webhookCandidatesSQL,
            { s in
                s.bind(1, now)
                s.bind(2, perEndpoint < limit ? limit * 4 : limit)
                s.bind(3, WebhookEndpoint.storedList(left.sorted()))
            }, row: { s in (endpointId: s.text(0), messageId: s.text(1)) })
        guard !candidates.isEmpty else { return [] }
        let chosen = Set(
            WebhookClaimPlan.choose(
                candidates.enumerated().map { (endpointId: $1.endpointId, key: $0) }, limit: limit,
                perEndpoint: perEndpoint))
        var claimed: [WebhookDelivery] = []
        for (i, c) in candidates.enumerated() where chosen.contains(i) {
            if let d = try db.queryFirst(
                Self.webhookLeaseSQL,
                { s in
                    s.bind(1, c.endpointId)
                    s.bind(2, c.messageId)
                    s.bind(3, owner)
                    s.bind(4, leaseUntil)
                    s.bind(5, now)
                }, row: Self.decodeWebhookDelivery)
            {
                claimed.append(d)
            }
        }
        return claimed
    }

    static let finishWebhookSQL = """
        UPDATE webhook_outbox SET state = ?5, attempts = attempts + 1, scheduled_attempts = scheduled_attempts + 1,
            next_attempt_at = ?6, lease_owner = NULL, lease_until = NULL, last_status = ?7, last_error = ?8,
            delivered_at = ?9, updated_at = ?10
        WHERE endpoint_id = ?1 AND message_id = ?2 AND lease_owner = ?3 AND attempts = ?4 AND state = 'pending'
        """
    static let insertWebhookAttemptSQL = """
        INSERT OR REPLACE INTO webhook_attempts (\(webhookAttemptColumns)) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
        """
    static let webhookSucceededSQL =
        "UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?1 AND failing_since IS NOT NULL"
    static let webhookFailedSQL =
        "UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?2) WHERE id = ?1"
    static let webhookDisableSQL = """
        UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?3, disabled_at = ?2, updated_at = ?2
        WHERE id = ?1 AND enabled = 1 AND failing_since <= ?2 - ?4
        """
    static let webhookFailPendingSQL = """
        UPDATE webhook_outbox SET state = 'failed', next_attempt_at = NULL, last_error = ?3, updated_at = ?2
        WHERE endpoint_id = ?1 AND state = 'pending' AND lease_until IS NULL
        """

    func finishWebhookAttempt(
        _ a: WebhookAttempt, owner: String, claimedAttempts: Int, outcome: WebhookAttemptOutcome, now: Int64
    ) throws(StoreError) -> Bool {
        let (state, next) = WebhookAttemptOutcome.columns(outcome)
        let changed = try db.execute(Self.finishWebhookSQL) { s in
            s.bind(1, a.endpointId)
            s.bind(2, a.messageId)
            s.bind(3, owner)
            s.bind(4, claimedAttempts)
            s.bind(5, state)
            s.bind(6, next)
            s.bind(7, a.status.map(Int64.init))
            s.bind(8, a.error)
            s.bind(9, outcome == .delivered ? now : nil)
            s.bind(10, now)
        }
        guard changed > 0 else { return false }
        try db.execute(Self.insertWebhookAttemptSQL) { s in
            s.bind(1, a.endpointId)
            s.bind(2, a.messageId)
            s.bind(3, a.number)
            s.bind(4, a.at)
            s.bind(5, a.durationMilliseconds)
            s.bind(6, a.status.map(Int64.init))
            s.bind(7, a.error)
            s.bind(8, a.answer)
            s.bind(9, a.node)
        }
        if a.succeeded {
            try db.execute(Self.webhookSucceededSQL) { $0.bind(1, a.endpointId) }
            return true
        }
        try db.execute(Self.webhookFailedSQL) { s in
            s.bind(1, a.endpointId)
            s.bind(2, now)
        }
        let disabled = try db.execute(Self.webhookDisableSQL) { s in
            s.bind(1, a.endpointId)
            s.bind(2, now)
            s.bind(3, WebhookAttemptOutcome.disabledReason)
            s.bind(4, WebhookRetrySchedule.disableAfter)
        }
        if disabled > 0 {
            webhookAudience.endpointsChanged()
            try db.execute(Self.webhookFailPendingSQL) { s in
                s.bind(1, a.endpointId)
                s.bind(2, now)
                s.bind(3, "endpoint disabled")
            }
        }
        return true
    }

    static let redeliverWebhookSQL = """
        UPDATE webhook_outbox SET state = 'pending', scheduled_attempts = 0, schedule_started_at = ?3,
            next_attempt_at = ?3, updated_at = ?3
        WHERE endpoint_id = ?1 AND message_id = ?2 AND (lease_until IS NULL OR lease_until <= ?3)
        """

    func redeliverWebhook(endpointId: String, messageId: String, now: Int64) throws(StoreError) -> Bool {
        let changed = try db.execute(Self.redeliverWebhookSQL) { s in
            s.bind(1, endpointId)
            s.bind(2, messageId)
            s.bind(3, now)
        }
        if changed > 0 { webhookSignal.raise() }
        return changed > 0
    }

    static let releaseWebhookLeasesSQL = """
        UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL
        WHERE lease_until IS NOT NULL AND (?1 IS NULL OR substr(lease_owner, 1, length(?1)) = ?1)
        """

    func releaseWebhookLeases(ownerPrefix: String?) throws(StoreError) {
        try db.execute(Self.releaseWebhookLeasesSQL) { $0.bind(1, ownerPrefix) }
    }
}

/// Retention (decision 0028): deliveries and their attempts go with the other events after
/// the retention period, whatever their state. A delivery's id (`msg_` + ULID) holds the
/// time its event was made, so an endpoint's old rows are a range of its key.
extension SQLiteTransaction {
    static let pruneWebhookOutboxSQL = """
        DELETE FROM webhook_outbox WHERE (endpoint_id, message_id) IN (
            SELECT endpoint_id, message_id FROM webhook_outbox WHERE endpoint_id = ?1 AND message_id < ?2 LIMIT ?3)
        """
    static let pruneWebhookAttemptsSQL = """
        DELETE FROM webhook_attempts WHERE (endpoint_id, message_id, number) IN (
            SELECT endpoint_id, message_id, number FROM webhook_attempts
            WHERE endpoint_id = ?1 AND message_id < ?2 LIMIT ?3)
        """
    static let webhookEndpointIdsSQL = """
        SELECT DISTINCT endpoint_id FROM webhook_outbox
        UNION SELECT DISTINCT endpoint_id FROM webhook_attempts
        """

    /// At most `limit` outbox and `limit` attempt rows of events made before `cutoff`.
    func pruneWebhookRows(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        let bound = WebhookEvent.idPrefix + ULID.make(milliseconds: UInt64(max(0, cutoff)), random: (0, 0))
        var deleted = 0
        for endpoint in try db.queryAll(Self.webhookEndpointIdsSQL, row: { $0.text(0) }) where deleted < limit {
            for sql in [Self.pruneWebhookOutboxSQL, Self.pruneWebhookAttemptsSQL] {
                deleted += try db.execute(sql) { s in
                    s.bind(1, endpoint)
                    s.bind(2, bound)
                    s.bind(3, limit)
                }
            }
        }
        return deleted
    }
}
