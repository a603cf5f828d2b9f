import CPostgreSQL
import Model

/// Maps PostgreSQL errors to `StoreError`, naming the uniqueness rule that broke by
/// the constraint's name (the schema names every constraint that carries a rule).
enum PGErrors {
    /// Constraint name -> the rule callers switch on (as the SQLite store's).
    static let conflictNames: [String: StoreConflict] = [
        "links_domain_key": .linkKey,
        "open_event_keys_pkey": .eventId,
        "open_events_pkey": .openId,
        "domains_pkey": .domain,
        "mobile_apps_pkey": .app,
        "links_pkey": .linkId,
        "links_external_id": .externalId,
        "tags_name_key": .tagName,
        "tags_pkey": .tagId,
        "handoffs_pkey": .handoff,
        "secret_keys_key_hash": .secretKey,
        "secret_keys_pkey": .secretKeyId,
        "publishable_keys_key_hash": .publishableKey,
        "publishable_keys_pkey": .publishableKeyId,
        "signing_keys_pkey": .signingKey,
        "app_domains_pkey": .appDomain,
        "idempotency_records_pkey": .idempotencyRecord,
        "app_instances_pkey": .appInstance,
    ]

    /// Foreign key name (PostgreSQL's default `<table>_<column>_fkey`) -> the
    /// `missingReference` name callers expect (as the SQLite store's).
    static let referenceNames: [String: StoreReference] = [
        "links_domain_fkey": .domain,
        "links_app_id_fkey": .app,
        "link_tags_tag_id_fkey": .tag,
        "app_domains_hostname_fkey": .domain,
        "app_domains_app_id_fkey": .app,
    ]

    /// SQLSTATE classes and codes the store tells apart.
    static let uniqueViolation = "23505"
    static let foreignKeyViolation = "23503"
    static let serializationFailure = "40001"
    static let deadlockDetected = "40P01"
    static let lockNotAvailable = "55P03"
    static let queryCanceled = "57014"

    static func error(of result: OpaquePointer, connectionBroken: Bool, message fallback: String) -> StoreError {
        let sqlstate = field(result, "C") ?? ""
        let message = field(result, "M") ?? fallback
        if connectionBroken || sqlstate.hasPrefix("08") || sqlstate.hasPrefix("57P") {
            // 08: connection exception; 57P01..: the server is shutting down or restarting.
            return .unavailable(message)
        }
        switch sqlstate {
        case uniqueViolation:
            let constraint = field(result, "n") ?? ""
            return .conflict(conflictNames[constraint] ?? .unnamed)
        case foreignKeyViolation:
            return .missingReference(referenceNames[field(result, "n") ?? ""] ?? .unnamed)
        case serializationFailure, deadlockDetected, lockNotAvailable, queryCanceled:
            // Another transaction holds what this one needs: the same write may pass later
            // (reported like SQLite's busy, `isLockTimeout`).
            return .backend(code: 5, message: "PostgreSQL \(sqlstate): \(message)")
        default:
            return .backend(code: sqlstateCode(sqlstate), message: "PostgreSQL \(sqlstate): \(message)")
        }
    }

    /// No result at all: the connection failed while sending or receiving.
    static func connectionError(_ message: String, broken: Bool) -> StoreError {
        broken ? .unavailable(message.isEmpty ? "connection lost" : message) : .backend(code: -1, message: message)
    }

    private static func field(_ result: OpaquePointer, _ code: Character) -> String? {
        guard let ascii = code.asciiValue, let value = PQresultErrorField(result, Int32(ascii)) else { return nil }
        return String(cString: value)
    }

    /// A stable number for a SQLSTATE whose low byte is 0, so that `isLockTimeout`
    /// (SQLite's busy and locked are 5 and 6 there) never reads one as a lock wait.
    static func sqlstateCode(_ sqlstate: String) -> Int32 {
        var n: UInt32 = 0
        for c in sqlstate.utf8.prefix(5) { n = n &* 36 &+ UInt32(c) }
        return Int32(bitPattern: (n << 8) & 0x7FFF_FF00 | 0x4000_0000)
    }
}
