/// The rows of `open_event_keys` that PostgreSQL keeps beside each open event (SQLite
/// has unique indexes on `open_events` instead), derived as `PGTransaction+Opens`
/// writes them, so that the idempotency look-ups find copied events exactly as they
/// find events written on PostgreSQL:
///
/// - 'e' with the eventId's UTF-8 bytes, for every event;
/// - 'k' with `idempotency_key_hash`, when that is a non-empty hash (an Idempotency-Key
///   other than the eventId). An empty hash (the key was the eventId) and NULL (no key)
///   make no 'k' row; the column itself is copied as it is, empty or NULL.
///
/// Each row points at its event by (`open_id`, `at`).
enum OpenEventKeys {
    static let table = "open_event_keys"

    static let insertSQL = """
        INSERT INTO open_event_keys (app_id, kind, key, open_id, at)
        SELECT app_id, kind::"char", key, open_id, at
        FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[], $5::int8[]) AS k (app_id, kind, key, open_id, at)
        """

    /// How many key rows the source's events make (SQLite): one per event, plus one per
    /// event with a non-empty hash.
    static let sourceCountSQL = """
        SELECT count(*) + count(CASE WHEN length(idempotency_key_hash) > 0 THEN 1 END) FROM open_events
        """

    /// The key rows of a batch of `open_events` rows.
    static func rows(of events: CopyBatch) -> [(app: String, kind: String, key: [UInt8], open: String, at: Int64)] {
        let ids = events.column("id")
        let apps = events.column("app_id")
        let eventIds = events.column("event_id")
        let hashes = events.column("idempotency_key_hash")
        let times = events.column("at")
        var out: [(String, String, [UInt8], String, Int64)] = []
        out.reserveCapacity(events.count * 2)
        for i in 0..<events.count {
            guard case .text(let id) = ids[i], case .text(let app) = apps[i], case .text(let eventId) = eventIds[i],
                case .int(let at) = times[i]
            else { continue }  // NOT NULL columns: never taken
            out.append((app, "e", Array(eventId.utf8), id, at))
            if case .bytes(let hash) = hashes[i], !hash.isEmpty { out.append((app, "k", hash, id, at)) }
        }
        return out
    }

    static func params(_ rows: [(app: String, kind: String, key: [UInt8], open: String, at: Int64)]) -> PGParams {
        let n = rows.count
        var p = PGParams(capacity: 5)
        p.array(PGParams.textOID, count: n) { w in for r in rows { w.text(r.app) } }
        p.array(PGParams.textOID, count: n) { w in for r in rows { w.text(r.kind) } }
        p.array(PGParams.byteaOID, count: n) { w in for r in rows { w.bytes(r.key) } }
        p.array(PGParams.textOID, count: n) { w in for r in rows { w.text(r.open) } }
        p.array(PGParams.int8OID, count: n) { w in for r in rows { w.int(r.at) } }
        return p
    }
}
