/// PostgreSQL schema version 12: outgoing webhooks (issue 26, decision 0028), as
/// SQLite's. Additive (`compatible_from` stays): an older binary beside it writes no
/// outbox rows, so the opens, leads, sales and link changes it records are not reported.
enum PGSchemaV12 {
    static let sql = """
        CREATE TABLE webhook_endpoints (
            id text PRIMARY KEY,
            url text NOT NULL,
            description text,
            event_types text NOT NULL,
            app_ids text,
            link_ids text,
            enabled boolean NOT NULL,
            disabled_reason text,
            disabled_at bigint,
            secret text NOT NULL,
            previous_secret text,
            previous_secret_expires_at bigint,
            failing_since bigint,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
        );

        CREATE TABLE webhook_outbox (
            endpoint_id text NOT NULL,
            message_id text NOT NULL,
            type text NOT NULL,
            body bytea NOT NULL,
            created_at bigint NOT NULL,
            state text NOT NULL,
            attempts bigint NOT NULL,
            scheduled_attempts bigint NOT NULL,
            schedule_started_at bigint NOT NULL,
            next_attempt_at bigint,
            lease_owner text,
            lease_until bigint,
            last_status bigint,
            last_error text,
            delivered_at bigint,
            updated_at bigint NOT NULL,
            PRIMARY KEY (endpoint_id, message_id)
        );
        CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at, lease_until, endpoint_id, message_id, state)
            WHERE state = 'pending';
        CREATE INDEX webhook_outbox_leased ON webhook_outbox(lease_until) WHERE lease_until IS NOT NULL;
        CREATE INDEX webhook_outbox_pending_created ON webhook_outbox(created_at) WHERE state = 'pending';

        CREATE TABLE webhook_attempts (
            endpoint_id text NOT NULL,
            message_id text NOT NULL,
            number bigint NOT NULL,
            at bigint NOT NULL,
            duration_ms bigint NOT NULL,
            status bigint,
            error text,
            answer text,
            node text NOT NULL,
            PRIMARY KEY (endpoint_id, message_id, number)
        );
        """
}
