/// Why a store operation failed. Messages never contain tokens or keys.
public enum StoreError: Error, Sendable, Equatable {
    /// A uniqueness rule was broken (`.domain`, `.linkKey`, `.eventId`, ...).
    case conflict(StoreConflict)
    /// A referenced row does not exist (`.domain`, `.app`, ...).
    case missingReference(StoreReference)
    /// The database file is newer than this binary.
    case schemaTooNew(found: Int, supported: Int)
    /// The writer is closed (shutdown).
    case closed
    /// SQLite (or another backend) reported an error; `message` is safe to log.
    case backend(code: Int32, message: String)
    /// The database server cannot be reached (refused, lost, restarting): the same
    /// write may succeed once it is back. `message` is safe to log (no password).
    case unavailable(String)
    /// A write would store text with a NUL byte, which PostgreSQL's `text` cannot hold
    /// (the store refuses it on both backends' behalf before it reaches the server).
    case textWithNUL

    /// Another connection held a lock on the database for longer than the store's lock
    /// wait (SQLite's `SQLITE_BUSY` or `SQLITE_LOCKED`, any extended form): the same write
    /// may succeed later, unlike a constraint, a full disk or an I/O error.
    public var isLockTimeout: Bool {
        guard case .backend(let code, _) = self else { return false }
        return code & 0xFF == 5 || code & 0xFF == 6
    }

    /// The message alone, for logs and one-line errors.
    public var safeMessage: String {
        switch self {
        case .backend(_, let message), .unavailable(let message): return message
        case .textWithNUL: return "a text value holds a NUL byte (U+0000), which PostgreSQL cannot store"
        default: return "\(self)"
        }
    }

    /// A failure that says nothing about the write itself and may pass: a lock held by
    /// another connection, or a database server out of reach. Writes that may be retried
    /// (clicks written after their answer) are retried on these only.
    public var isTransient: Bool {
        if case .unavailable = self { return true }
        return isLockTimeout
    }
}

/// Which uniqueness rule a write broke, so that callers switch on a case rather than
/// compare text. The raw value is the rule's name in logs (`conflict(link_key)`).
public enum StoreConflict: String, Sendable, Equatable, CustomStringConvertible {
    /// A domain with this hostname exists (`domain_taken`).
    case domain
    case app
    case linkId = "link_id"
    /// Another link has this key on this domain (`alias_taken`).
    case linkKey = "link_key"
    /// The app already has an open event with this `eventId`.
    case eventId = "event_id"
    /// The app already has an open event with this `Idempotency-Key`.
    case idempotencyKey = "idempotency_key"
    case openId = "open_id"
    case handoff
    case secretKey = "secret_key"
    case secretKeyId = "secret_key_id"
    case publishableKey = "publishable_key"
    case publishableKeyId = "publishable_key_id"
    case signingKey = "signing_key"
    case appDomain = "app_domain"
    /// A management-API idempotent answer is already stored for this key.
    case idempotencyRecord = "idempotency_record"
    case appInstance = "app_instance"
    /// A handoff read as unclaimed was claimed by another open before this body's
    /// claim (thrown by the resolver's body, which is then run again).
    case handoffClaim = "handoff_claim"
    /// A click read as unconsumed was consumed by another probabilistic match first
    /// (thrown by the resolver's body, which is then run again).
    case clickConsumed = "click_consumed"
    /// Another link of the workspace has this external id (`external_id_taken`).
    case externalId = "external_id"
    /// A tag of the workspace has this name, ignoring case (`tag_name_taken`).
    case tagName = "tag_name"
    case tagId = "tag_id"
    /// A uniqueness rule the backend did not name.
    case unnamed = "unique"

    public var description: String { rawValue }
}

/// Which referenced row a write named but the store does not hold.
public enum StoreReference: String, Sendable, Equatable, CustomStringConvertible {
    case domain
    case app
    /// A link names a tag that does not exist.
    case tag
    /// A foreign key the backend did not name (SQLite does not say which).
    case unnamed = "reference"

    public var description: String { rawValue }
}
