/// Version 12: outgoing webhooks (issue 26, decision 0028).
///
/// - `webhook_endpoints`: the receivers. `event_types`, `app_ids` and `link_ids` are lists
///   with each item between spaces (` a b `), so that the outbox's insert finds an item
///   with `instr`; NULL filters match every app or link. The secrets are kept as made.
/// - `webhook_outbox`: one row per event and endpoint, written in the transaction of what
///   it reports; `message_id` is the `webhook-id`. Due rows through `webhook_outbox_due`
///   (covering: a claim reads no row it does not lease), leased ones through
///   `webhook_outbox_leased`, the oldest pending through `webhook_outbox_pending_created`,
///   an endpoint's newest through its key.
/// - `webhook_attempts`: every attempt, numbered per delivery.
enum SchemaV12 {
    static let sql = """
        CREATE TABLE webhook_endpoints (
            id TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL,
            description TEXT,
            event_types TEXT NOT NULL,
            app_ids TEXT,
            link_ids TEXT,
            enabled INTEGER NOT NULL,
            disabled_reason TEXT,
            disabled_at INTEGER,
            secret TEXT NOT NULL,
            previous_secret TEXT,
            previous_secret_expires_at INTEGER,
            failing_since INTEGER,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );

        CREATE TABLE webhook_outbox (
            endpoint_id TEXT NOT NULL,
            message_id TEXT NOT NULL,
            type TEXT NOT NULL,
            body BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL,
            scheduled_attempts INTEGER NOT NULL,
            schedule_started_at INTEGER NOT NULL,
            next_attempt_at INTEGER,
            lease_owner TEXT,
            lease_until INTEGER,
            last_status INTEGER,
            last_error TEXT,
            delivered_at INTEGER,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (endpoint_id, message_id)
        ) WITHOUT ROWID;
        CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at, lease_until, endpoint_id, message_id, state)
            WHERE state = 'pending';
        CREATE INDEX webhook_outbox_leased ON webhook_outbox(lease_until) WHERE lease_until IS NOT NULL;
        CREATE INDEX webhook_outbox_pending_created ON webhook_outbox(created_at) WHERE state = 'pending';

        CREATE TABLE webhook_attempts (
            endpoint_id TEXT NOT NULL,
            message_id TEXT NOT NULL,
            number INTEGER NOT NULL,
            at INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            status INTEGER,
            error TEXT,
            answer TEXT,
            node TEXT NOT NULL,
            PRIMARY KEY (endpoint_id, message_id, number)
        ) WITHOUT ROWID;
        """
}
