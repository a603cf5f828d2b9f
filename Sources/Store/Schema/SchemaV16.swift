/// Version 16: webhooks hardened (issue 33 items 8 and 11, decision 0031).
///
/// - `webhook_outbox_tests`: the test events of an endpoint by time (a partial index: only
///   `webhook.test` rows), so that the limit on them (`WebhookTestLimit`) is a range of a
///   few index entries, whatever the outbox holds.
/// - `webhook_secret_keys`: the ids of the keys that seal the endpoints' signing secrets
///   (never the keys: those are in each node's data directory, `WebhookKeyring`). The first
///   node to seal registers its key; a node whose keys the table does not hold may not seal,
///   so two nodes of a fleet never seal with two different keys.
/// The secrets themselves stay in `secret` and `previous_secret`, sealed there
/// (`whenc1.` ..., `WebhookSecretSeal`) once every node can read them.
enum SchemaV16 {
    static let sql = """
        CREATE INDEX webhook_outbox_tests ON webhook_outbox(endpoint_id, message_id) WHERE type = 'webhook.test';
        CREATE TABLE webhook_secret_keys (
            id TEXT PRIMARY KEY NOT NULL,
            created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
}
