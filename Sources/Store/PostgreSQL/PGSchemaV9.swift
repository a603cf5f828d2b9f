/// PostgreSQL schema version 9: conversions (issue 25, decision 0024), as SQLite's
/// `SchemaV9`: `secret_keys.scopes` (NULL: every power), `customers` and
/// `conversion_events`, whose unique keys (`event_id`, `idempotency_key_hash`) make the
/// same event sent to several nodes at once one row (`INSERT ... ON CONFLICT DO
/// NOTHING` waits for the other transaction, then the winner is read).
///
/// Additive (`compatible_from` stays): an older binary beside it never reads the new
/// tables, and reads a scoped key as one with every power, so upgrade the fleet before
/// handing out scoped keys (`keys create --scope` refuses while such a node is live:
/// `PGNodeListing.keyScopesSchemaVersion`).
enum PGSchemaV9 {
    static let sql = """
        ALTER TABLE secret_keys ADD COLUMN scopes text;

        CREATE TABLE customers (
            id text NOT NULL CONSTRAINT customers_pkey PRIMARY KEY,
            external_id text NOT NULL CONSTRAINT customers_external_id UNIQUE,
            name text,
            email text,
            avatar text,
            click_id text,
            link_id text,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
        );

        CREATE TABLE conversion_events (
            id text NOT NULL CONSTRAINT conversion_events_pkey PRIMARY KEY,
            type text NOT NULL,
            event_id text NOT NULL CONSTRAINT conversion_events_event_id UNIQUE,
            idempotency_key_hash bytea NOT NULL CONSTRAINT conversion_events_key_hash UNIQUE,
            request_hash bytea NOT NULL,
            event_name text NOT NULL,
            customer_id text NOT NULL,
            click_id text,
            link_id text,
            amount bigint,
            currency text,
            payment_processor text,
            invoice_id text,
            metadata text,
            occurred_at bigint NOT NULL,
            created_at bigint NOT NULL,
            response bytea NOT NULL
        );
        CREATE INDEX conversion_events_customer ON conversion_events(customer_id, occurred_at);
        CREATE INDEX conversion_events_link ON conversion_events(link_id, created_at, id COLLATE "C") WHERE link_id IS NOT NULL;
        CREATE INDEX conversion_events_created ON conversion_events(created_at, id COLLATE "C");
        """
}
