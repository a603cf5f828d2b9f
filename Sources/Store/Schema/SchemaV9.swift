/// Version 9: conversions (issue 25, decision 0024).
///
/// - `secret_keys.scopes`: what a key may do, its scope names separated by spaces; NULL
///   for every power (every key made before this version keeps them all).
/// - `customers`: the workspace's customers by their external ID, with the click that
///   brought them (the first attributed one) and its link.
/// - `conversion_events`: leads and sales. The idempotency rule lives in its unique keys:
///   one event per `event_id` whatever its type, one per `Idempotency-Key` (its SHA-256);
///   the answer it got is kept to be replayed. By customer for a customer's journey; in
///   the order they were recorded (`created_at`, then id) for the events list, by link too.
enum SchemaV9 {
    static let sql = """
        ALTER TABLE secret_keys ADD COLUMN scopes TEXT;

        CREATE TABLE customers (
            id TEXT PRIMARY KEY NOT NULL,
            external_id TEXT NOT NULL UNIQUE,
            name TEXT,
            email TEXT,
            avatar TEXT,
            click_id TEXT,
            link_id TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        );

        CREATE TABLE conversion_events (
            id TEXT PRIMARY KEY NOT NULL,
            type TEXT NOT NULL,
            event_id TEXT NOT NULL UNIQUE,
            idempotency_key_hash BLOB NOT NULL UNIQUE,
            request_hash BLOB NOT NULL,
            event_name TEXT NOT NULL,
            customer_id TEXT NOT NULL,
            click_id TEXT,
            link_id TEXT,
            amount INTEGER,
            currency TEXT,
            payment_processor TEXT,
            invoice_id TEXT,
            metadata TEXT,
            occurred_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            response BLOB NOT NULL
        );
        CREATE INDEX conversion_events_customer ON conversion_events(customer_id, occurred_at);
        CREATE INDEX conversion_events_link ON conversion_events(link_id, created_at, id) WHERE link_id IS NOT NULL;
        CREATE INDEX conversion_events_created ON conversion_events(created_at, id);
        """
}
