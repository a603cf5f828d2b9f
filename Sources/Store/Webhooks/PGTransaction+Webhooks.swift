import Core
import Model

/// The webhooks' writes (decision 0028), as SQLite's. The claim reads candidates without
/// locking them, then leases the chosen rows in one statement through `FOR UPDATE SKIP
/// LOCKED`: a row another node's claim holds is skipped, not waited for, and no row is
/// locked that is not leased. An attempt's outcome is one statement too: round trips on
/// the writer's connection, not the server's work, bound the deliveries per second.
extension PGTransaction {
    static let enqueueWebhookSQL = """
        INSERT INTO webhook_outbox (endpoint_id, message_id, type, body, created_at, state, attempts,
                                    scheduled_attempts, schedule_started_at, next_attempt_at, updated_at)
        SELECT id, $1, $2, $3, $4, 'pending', 0, 0, $4, $4, $4 FROM webhook_endpoints
        WHERE enabled AND strpos(event_types, $5) > 0 AND (app_ids IS NULL OR strpos(app_ids, $6) > 0)
          AND (link_ids IS NULL OR strpos(link_ids, $7) > 0)
        ON CONFLICT DO NOTHING
        """
    static let enqueueWebhookForSQL = """
        INSERT INTO webhook_outbox (endpoint_id, message_id, type, body, created_at, state, attempts,
                                    scheduled_attempts, schedule_started_at, next_attempt_at, updated_at)
        VALUES ($5, $1, $2, $3, $4, 'pending', 0, 0, $4, $4, $4)
        """

    func enqueueWebhookEvent(_ event: WebhookEvent) throws(StoreError) -> Int {
        guard try webhookEventWanted(event.type, appId: event.appId, linkId: event.linkId) else { return 0 }
        try willQuery()
        var p = PGParams(capacity: 7)
        p.text(event.id)
        p.text(event.type.rawValue)
        p.bytes(event.body)
        p.int(event.at)
        p.text(" " + event.type.rawValue + " ")
        p.text(event.appId.map { " " + $0 + " " })
        p.text(event.linkId.map { " " + $0 + " " })
        let written = try db.run("pgt_enqueue_webhook", Self.enqueueWebhookSQL, p).affectedRows
        if written > 0 { webhookSignal.raise() }
        return written
    }

    func enqueueWebhookEvent(_ event: WebhookEvent, endpointId: String) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 5)
        p.text(event.id)
        p.text(event.type.rawValue)
        p.bytes(event.body)
        p.int(event.at)
        p.text(endpointId)
        try db.run("pgt_enqueue_webhook_for", Self.enqueueWebhookForSQL, p)
        webhookSignal.raise()
    }

    /// As SQLite's: the endpoints' ids, as an array computed once, let the key find the
    /// rows (`= ANY` on its first column) rather than a scan of the outbox. The index scan
    /// takes one event's rows in endpoint order; the delivery threads write outcomes event
    /// by event in that order too (`WebhookDispatcher.record`), so the two never deadlock.
    static let replaceWebhookBodySQL = """
        UPDATE webhook_outbox SET body = $2
        WHERE endpoint_id = ANY (ARRAY(SELECT id FROM webhook_endpoints)) AND message_id = $1
        """

    func replaceWebhookBody(messageId: String, body: [UInt8]) throws(StoreError) -> Int {
        try willQuery()
        var p = PGParams()
        p.text(messageId)
        p.bytes(body)
        return try db.run("pgt_replace_webhook_body", Self.replaceWebhookBodySQL, p).affectedRows
    }

    static let putWebhookEndpointSQL = """
        INSERT INTO webhook_endpoints (\(webhookEndpointColumns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
        ON CONFLICT (id) DO UPDATE SET url = excluded.url, description = excluded.description,
            event_types = excluded.event_types, app_ids = excluded.app_ids, link_ids = excluded.link_ids,
            enabled = excluded.enabled, disabled_reason = excluded.disabled_reason, disabled_at = excluded.disabled_at,
            secret = excluded.secret, previous_secret = excluded.previous_secret,
            previous_secret_expires_at = excluded.previous_secret_expires_at, failing_since = excluded.failing_since,
            created_at = excluded.created_at, updated_at = excluded.updated_at
        """

    func putWebhookEndpoint(_ e: WebhookEndpoint) throws(StoreError) {
        webhookAudience.endpointsChanged()
        try willQuery()
        var p = PGParams(capacity: 15)
        p.text(e.id)
        p.text(e.url)
        p.text(e.description)
        p.text(WebhookEndpoint.storedList(e.eventTypes.map(\.rawValue)))
        p.text(e.appIds.map(WebhookEndpoint.storedList))
        p.text(e.linkIds.map(WebhookEndpoint.storedList))
        p.bool(e.enabled)
        p.text(e.disabledReason)
        p.int(e.disabledAt)
        p.text(e.secret)
        p.text(e.previousSecret)
        p.int(e.previousSecretExpiresAt)
        p.int(e.failingSince)
        p.int(e.createdAt)
        p.int(e.updatedAt)
        try db.run("pgt_put_webhook_endpoint", Self.putWebhookEndpointSQL, p)
    }

    static let registerWebhookSecretKeySQL =
        "INSERT INTO webhook_secret_keys (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING"

    func registerWebhookSecretKey(id: String, now: Int64) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(id)
        p.int(now)
        try db.run("pgt_register_webhook_secret_key", Self.registerWebhookSecretKeySQL, p)
    }

    /// Under the fleet's secrets lock (held to the commit), so that two nodes starting at
    /// once on a new database register one key, not one each.
    func registerFirstWebhookSecretKey(id: String, now: Int64) throws(StoreError) -> [String] {
        try willQuery()
        var lock = PGParams()
        lock.int(StoreLock.fleetSecrets.rawValue)
        try db.run("pgt_webhook_keys_lock", "SELECT pg_advisory_xact_lock($1)", lock)
        if try webhookSecretKeyIds().isEmpty { try registerWebhookSecretKey(id: id, now: now) }
        return try webhookSecretKeyIds()
    }

    func deleteWebhookEndpoint(id: String) throws(StoreError) -> Bool {
        webhookAudience.endpointsChanged()
        try willQuery()
        var p = PGParams()
        p.text(id)
        let deleted = try db.run("pgt_delete_webhook_endpoint", "DELETE FROM webhook_endpoints WHERE id = $1", p)
            .affectedRows
        try db.run("pgt_delete_webhook_outbox", "DELETE FROM webhook_outbox WHERE endpoint_id = $1", p)
        try db.run("pgt_delete_webhook_attempts", "DELETE FROM webhook_attempts WHERE endpoint_id = $1", p)
        return deleted > 0
    }

    static let webhookCandidatesSQL = """
        SELECT endpoint_id, message_id FROM webhook_outbox
        WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
          AND strpos($3, ' ' || endpoint_id || ' ') = 0
        ORDER BY next_attempt_at LIMIT $2
        """
    /// The chosen rows leased in one statement (their keys as two arrays): a row another
    /// node's claim holds is skipped (`SKIP LOCKED`), as is one leased or finished since the
    /// candidates were read.
    static let webhookLeaseSQL = """
        UPDATE webhook_outbox o SET lease_owner = $3, lease_until = $4
        FROM (SELECT endpoint_id, message_id FROM webhook_outbox
              WHERE (endpoint_id, message_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $5)
              FOR UPDATE SKIP LOCKED) c
        WHERE o.endpoint_id = c.endpoint_id AND o.message_id = c.message_id
        RETURNING \(leasedDeliveryColumns)
        """
    /// The delivery's columns of the updated row (`o.`: the subquery has two of the names).
    static let leasedDeliveryColumns = webhookDeliveryColumns.split(separator: ",")
        .map { "o." + $0.filter { !$0.isWhitespace } }.joined(separator: ", ")

    func claimWebhookDeliveries(
        owner: String, now: Int64, leaseUntil: Int64, limit: Int, perEndpoint: Int, excluding: Set<String>,
        leaving: (WebhookEndpoint) -> Bool
    ) throws(StoreError) -> [WebhookDelivery] {
        try willQuery()
        var c = PGParams()
        c.int(now)
        c.int(Int64(perEndpoint < limit ? limit * 4 : limit))
        let left = excluding.union(try webhookEndpoints().filter { !$0.enabled || leaving($0) }.map(\.id))
        c.text(WebhookEndpoint.storedList(left.sorted()))
        let rows = try db.run("pgt_webhook_candidates", Self.webhookCandidatesSQL, c)
        guard rows.rowCount > 0 else { return [] }
        let candidates = (0..<rows.rowCount).map { (endpointId: rows.text($0, 0), key: $0) }
        let chosen = WebhookClaimPlan.choose(candidates, limit: limit, perEndpoint: perEndpoint).sorted()
        var p = PGParams()
        p.array(PGParams.textOID, count: chosen.count) { a in for i in chosen { a.text(rows.text(i, 0)) } }
        p.array(PGParams.textOID, count: chosen.count) { a in for i in chosen { a.text(rows.text(i, 1)) } }
        p.text(owner)
        p.int(leaseUntil)
        p.int(now)
        let leased = try db.run("pgt_webhook_lease", Self.webhookLeaseSQL, p)
        // In the candidates' order (the oldest due first), whatever order RETURNING gave.
        var order: [String: Int] = [:]
        for (rank, i) in chosen.enumerated() { order[rows.text(i, 0) + " " + rows.text(i, 1)] = rank }
        var claimed: [WebhookDelivery] = []
        for i in 0..<leased.rowCount { claimed.append(try Self.decodeWebhookDelivery(leased, i)) }
        func rank(_ d: WebhookDelivery) -> Int { order[d.endpointId + " " + d.messageId] ?? 0 }
        return claimed.sorted { rank($0) < rank($1) }
    }

    /// An attempt's outcome in one round trip: the delivery's row under its lease (no
    /// row: the lease is no longer this claim's, and nothing else is written), the
    /// attempt, and the endpoint's health (cleared by a success, set from a failure's
    /// time unless already failing); answers whether the row was written and since when
    /// the endpoint fails.
    static let finishWebhookSQL = """
        WITH f AS (
            UPDATE webhook_outbox SET state = $5, attempts = attempts + 1, scheduled_attempts = scheduled_attempts + 1,
                next_attempt_at = $6, lease_owner = NULL, lease_until = NULL, last_status = $7, last_error = $8,
                delivered_at = $9, updated_at = $10
            WHERE endpoint_id = $1 AND message_id = $2 AND lease_owner = $3 AND attempts = $4 AND state = 'pending'
            RETURNING 1),
        a AS (
            INSERT INTO webhook_attempts (\(webhookAttemptColumns))
            SELECT $1, $2, $11, $12, $13, $7, $8, $14, $15 FROM f
            ON CONFLICT (endpoint_id, message_id, number) DO NOTHING),
        e AS (
            UPDATE webhook_endpoints SET failing_since = CASE WHEN $16 THEN NULL ELSE coalesce(failing_since, $10) END
            WHERE id = $1 AND EXISTS (SELECT 1 FROM f) AND (NOT $16 OR failing_since IS NOT NULL)
            RETURNING failing_since)
        SELECT (SELECT count(*) FROM f), (SELECT failing_since FROM e)
        """
    static let webhookDisableSQL = """
        UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, disabled_at = $2, updated_at = $2
        WHERE id = $1 AND enabled AND failing_since <= $2 - $4
        """
    static let webhookFailPendingSQL = """
        UPDATE webhook_outbox SET state = 'failed', next_attempt_at = NULL, last_error = $3, updated_at = $2
        WHERE endpoint_id = $1 AND state = 'pending' AND lease_until IS NULL
        """

    func finishWebhookAttempt(
        _ a: WebhookAttempt, owner: String, claimedAttempts: Int, outcome: WebhookAttemptOutcome, now: Int64
    ) throws(StoreError) -> Bool {
        try willQuery()
        let (state, next) = WebhookAttemptOutcome.columns(outcome)
        var p = PGParams(capacity: 16)
        p.text(a.endpointId)
        p.text(a.messageId)
        p.text(owner)
        p.int(Int64(claimedAttempts))
        p.text(state)
        p.int(next)
        p.int(a.status.map(Int64.init))
        p.text(a.error)
        p.int(outcome == .delivered ? now : nil)
        p.int(now)
        p.int(Int64(a.number))
        p.int(a.at)
        p.int(a.durationMilliseconds)
        p.text(a.answer)
        p.text(a.node)
        p.bool(a.succeeded)
        let r = try db.run("pgt_finish_webhook", Self.finishWebhookSQL, p)
        guard r.int(0, 0) > 0 else { return false }
        // Failing for long enough (the statement said since when): disable the endpoint.
        guard !a.succeeded, !r.isNull(0, 1), r.int(0, 1) <= now - WebhookRetrySchedule.disableAfter else { return true }
        var d = PGParams()
        d.text(a.endpointId)
        d.int(now)
        d.text(WebhookAttemptOutcome.disabledReason)
        d.int(WebhookRetrySchedule.disableAfter)
        if try db.run("pgt_webhook_disable", Self.webhookDisableSQL, d).affectedRows > 0 {
            webhookAudience.endpointsChanged()
            var f = PGParams()
            f.text(a.endpointId)
            f.int(now)
            f.text("endpoint disabled")
            try db.run("pgt_webhook_fail_pending", Self.webhookFailPendingSQL, f)
        }
        return true
    }

    static let redeliverWebhookSQL = """
        UPDATE webhook_outbox SET state = 'pending', scheduled_attempts = 0, schedule_started_at = $3,
            next_attempt_at = $3, updated_at = $3
        WHERE endpoint_id = $1 AND message_id = $2 AND (lease_until IS NULL OR lease_until <= $3)
        """

    func redeliverWebhook(endpointId: String, messageId: String, now: Int64) throws(StoreError) -> Bool {
        try willQuery()
        var p = PGParams()
        p.text(endpointId)
        p.text(messageId)
        p.int(now)
        let changed = try db.run("pgt_redeliver_webhook", Self.redeliverWebhookSQL, p).affectedRows > 0
        if changed { webhookSignal.raise() }
        return changed
    }

    static let releaseWebhookLeasesSQL = """
        UPDATE webhook_outbox SET lease_owner = NULL, lease_until = NULL
        WHERE lease_until IS NOT NULL AND ($1::text IS NULL OR starts_with(lease_owner, $1))
        """

    func releaseWebhookLeases(ownerPrefix: String?) throws(StoreError) {
        try willQuery()
        var p = PGParams()
        p.text(ownerPrefix)
        try db.run("pgt_release_webhook_leases", Self.releaseWebhookLeasesSQL, p)
    }
}

/// Retention, as SQLite's: an endpoint's rows of events made before the cutoff are a range
/// of its key (`msg_` + ULID holds the time).
extension PGTransaction {
    static let pruneWebhookOutboxSQL = """
        DELETE FROM webhook_outbox WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM webhook_outbox WHERE endpoint_id = $1 AND message_id < $2 LIMIT $3))
        """
    static let pruneWebhookAttemptsSQL = """
        DELETE FROM webhook_attempts WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM webhook_attempts WHERE endpoint_id = $1 AND message_id < $2 LIMIT $3))
        """
    static let webhookEndpointIdsSQL = """
        SELECT DISTINCT endpoint_id FROM webhook_outbox UNION SELECT DISTINCT endpoint_id FROM webhook_attempts
        """

    func pruneWebhookRows(before cutoff: Int64, limit: Int) throws(StoreError) -> Int {
        try willQuery()
        let bound = WebhookEvent.idPrefix + ULID.make(milliseconds: UInt64(max(0, cutoff)), random: (0, 0))
        let endpoints = try db.run("pgt_webhook_endpoint_ids", Self.webhookEndpointIdsSQL, PGParams())
        var deleted = 0
        for r in 0..<endpoints.rowCount where deleted < limit {
            for (name, sql) in [
                ("pgt_prune_webhook_outbox", Self.pruneWebhookOutboxSQL),
                ("pgt_prune_webhook_attempts", Self.pruneWebhookAttemptsSQL),
            ] {
                var p = PGParams()
                p.text(endpoints.text(r, 0))
                p.text(bound)
                p.int(Int64(limit))
                deleted += try db.run(name, sql, p).affectedRows
            }
        }
        return deleted
    }
}
