import CSQLite
import Model

/// Maps SQLite result codes to `StoreError`, naming the uniqueness rule that broke.
enum SQLiteErrors {
    // Extended result codes; the C macros are `(SQLITE_CONSTRAINT | (n<<8))` and not importable.
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)

    /// Constraint column lists (as SQLite prints them) -> the `conflict` name callers switch on.
    static let conflictNames: [(String, String)] = [
        ("links.domain, links.key", "link_key"),
        ("open_events.app_id, open_events.event_id", "event_id"),
        ("open_events.app_id, open_events.idempotency_key_hash", "idempotency_key"),
        ("open_events_idempotency", "idempotency_key"),
        ("open_events.id", "open_id"),
        ("domains.hostname", "domain"),
        ("mobile_apps.id", "app"),
        ("links.id", "link_id"),
        ("handoffs.token_hash", "handoff"),
        ("secret_keys.key_hash", "secret_key"),
        ("secret_keys.id", "secret_key_id"),
        ("publishable_keys.key_hash", "publishable_key"),
        ("publishable_keys.id", "publishable_key_id"),
        ("signing_keys.kid", "signing_key"),
        ("app_domains.app_id, app_domains.hostname", "app_domain"),
        ("idempotency_records.scope, idempotency_records.key_hash", "idempotency_record"),
        ("app_instances.app_id, app_instances.instance_id", "app_instance"),
    ]

    static func storeError(code: Int32, message: String) -> StoreError {
        switch code {
        case constraintUnique, constraintPrimaryKey:
            for (columns, name) in conflictNames where message.hasSuffix(columns) || message.contains(columns + ",") {
                return .conflict(name)
            }
            for (columns, name) in conflictNames where message.contains(columns) { return .conflict(name) }
            return .conflict("unique")
        case constraintForeignKey:
            // SQLite does not say which key; the callers that can tell refine this.
            return .missingReference("reference")
        default:
            return .backend(code: code, message: message)
        }
    }
}
