/// PostgreSQL schema version 16: webhooks hardened (issue 33 items 8 and 11, decision
/// 0031), as SQLite's 16: the test events' partial index and the registry of the keys that
/// seal the signing secrets.
///
/// Additive (`compatible_from` stays): an older binary beside it counts no test events and
/// signs with the secrets as stored, which stay readable to it until every live node runs
/// this binary; only then are they sealed, and `compatible_from` raised to 16 first, so no
/// older binary starts on a database whose secrets it cannot read (decision 0031).
enum PGSchemaV16 {
    static let sql = """
        CREATE INDEX webhook_outbox_tests ON webhook_outbox(endpoint_id, message_id) WHERE type = 'webhook.test';
        CREATE TABLE webhook_secret_keys (
            id text PRIMARY KEY,
            created_at bigint NOT NULL
        );
        """
}
