import CSQLite
import Model

/// Maps SQLite result codes to `StoreError`, naming the uniqueness rule that broke.
enum SQLiteErrors {
    // Extended result codes; the C macros are `(SQLITE_CONSTRAINT | (n<<8))` and not importable.
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)

    /// Constraint column lists (as SQLite prints them) -> the conflict callers switch on.
    static let conflictNames: [(String, StoreConflict)] = [
        ("links.domain, links.key", .linkKey),
        ("open_events.app_id, open_events.event_id", .eventId),
        ("open_events.app_id, open_events.idempotency_key_hash", .idempotencyKey),
        ("open_events_idempotency", .idempotencyKey),
        ("open_events.id", .openId),
        ("domains.hostname", .domain),
        ("mobile_apps.id", .app),
        ("links.id", .linkId),
        ("links.external_id", .externalId),
        ("tags.name_key", .tagName),
        ("tags.id", .tagId),
        ("handoffs.token_hash", .handoff),
        ("secret_keys.key_hash", .secretKey),
        ("secret_keys.id", .secretKeyId),
        ("publishable_keys.key_hash", .publishableKey),
        ("publishable_keys.id", .publishableKeyId),
        ("signing_keys.kid", .signingKey),
        ("app_domains.app_id, app_domains.hostname", .appDomain),
        ("idempotency_records.scope, idempotency_records.key_hash", .idempotencyRecord),
        ("app_instances.app_id, app_instances.instance_id", .appInstance),
    ]

    static func storeError(code: Int32, message: String) -> StoreError {
        switch code {
        case constraintUnique, constraintPrimaryKey:
            for (columns, name) in conflictNames where message.hasSuffix(columns) || message.contains(columns + ",") {
                return .conflict(name)
            }
            for (columns, name) in conflictNames where message.contains(columns) { return .conflict(name) }
            return .conflict(.unnamed)
        case constraintForeignKey:
            // SQLite does not say which key; the callers that can tell refine this.
            return .missingReference(.unnamed)
        default:
            return .backend(code: code, message: message)
        }
    }
}
