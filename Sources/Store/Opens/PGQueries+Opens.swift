import Core
import Model

/// Open events and app instances on PostgreSQL.
///
/// Open events are found by their keys: `open_event_keys` holds one row per event
/// with kind 'e' (the eventId's UTF-8 bytes) and, when the Idempotency-Key was not
/// the eventId, one with kind 'k' (the key's SHA-256); each points at its event by
/// (`open_id`, `at`), the partitioned table's primary key. As in SQLite (decision
/// 0008), an event whose key was its eventId keeps an empty `idempotency_key_hash`.
extension PGQueries {
    // MARK: open events

    static let openColumns = """
        e.id, e.app_id, e.instance_id, e.event_id, e.idempotency_key_hash, e.request_hash, e.platform, e.matched_by, \
        e.first_open, e.sdk_version, e.link_id, e.click_id, e.at, e.stored_response, e.receipt, e.receipt_expires_at, \
        e.receipt_input
        """
    /// Every day's partition is probed (`open_events_id`).
    static let selectOpen = "SELECT \(openColumns) FROM open_events e WHERE e.id = $1 LIMIT 1"
    /// One event by its id and time, as `open_event_keys` holds them: the time prunes the
    /// partitions to one when the executor starts.
    static let selectOpenAt = "SELECT \(openColumns) FROM open_events e WHERE e.id = $1 AND e.at = $2"
    /// The same when it kept its Idempotency-Key as its own eventId (an empty hash).
    static let selectOpenAtOwnKey =
        "SELECT \(openColumns) FROM open_events e WHERE e.id = $1 AND e.at = $2 AND length(e.idempotency_key_hash) = 0"

    /// The idempotency look-ups go through `open_event_keys` alone, and read an event
    /// only when a key names one (a replay, rare). A join of the keys with the partitioned
    /// `open_events` made the executor set up an index scan of every daily partition (a
    /// hundred with 90 days kept) at every look-up, found or not: 290 us a look-up
    /// against 86 us here, with 16 partitions (decision 0023).
    /// Rank 1: the eventId ($2); 2: an event's own eventId equal to the key ($3, when it
    /// is not $2; its event must have kept the key so); 3: the key's hash ($4).
    /// Three probes of the primary key (an `OR` of them made the planner scan the app's
    /// keys, every one of them).
    static let selectIdempotencyKeys = """
        SELECT 1 AS rank, open_id, at FROM open_event_keys WHERE app_id = $1 AND kind = 'e' AND key = $2
        UNION ALL
        SELECT 2, open_id, at FROM open_event_keys WHERE app_id = $1 AND kind = 'e' AND key = $3 AND $3 <> $2
        UNION ALL
        SELECT 3, open_id, at FROM open_event_keys WHERE app_id = $1 AND kind = 'k' AND key = $4
        ORDER BY rank
        """
    static let selectKeyOfKind =
        #"SELECT open_id, at FROM open_event_keys WHERE app_id = $1 AND kind = $2::"char" AND key = $3"#
    static let selectRecentOpens = """
        SELECT \(openColumns) FROM open_events e WHERE e.app_id = $1 AND e.at >= $2
        ORDER BY e.at DESC, e.id COLLATE "C" DESC LIMIT $3
        """

    static func decodeOpen(_ r: PGResult, _ i: Int) throws(StoreError) -> OpenEvent {
        guard let platform = Platform(rawValue: r.text(i, 6)) else { throw ModelCodec.corrupt("open_events.platform") }
        guard let matchedBy = MatchType(rawValue: r.text(i, 7)) else {
            throw ModelCodec.corrupt("open_events.matched_by")
        }
        let eventId = r.text(i, 3)
        // An empty hash stands for "the key was the eventId" (decision 0008).
        let keyHash = r.optionalBytes(i, 4).map { $0.isEmpty ? SHA256.hash(eventId) : $0 }
        return OpenEvent(
            id: r.text(i, 0), appId: r.text(i, 1), appInstanceId: r.text(i, 2), eventId: eventId,
            idempotencyKeyHash: keyHash, requestHash: r.bytes(i, 5), platform: platform, matchedBy: matchedBy,
            firstOpen: r.bool(i, 8), sdkVersion: r.text(i, 9), linkId: r.optionalText(i, 10),
            clickId: r.optionalText(i, 11), at: r.int(i, 12), storedResponse: r.bytes(i, 13),
            receipt: r.optionalBytes(i, 14), receiptExpiresAt: r.optionalInt(i, 15),
            receiptInput: r.optionalBytes(i, 16))
    }

    func openEvent(id: String) throws(StoreError) -> OpenEvent? {
        try willQuery()
        var p = PGParams()
        p.text(id)
        return try Self.first(db.run("pgq_open", Self.selectOpen, p), Self.decodeOpen)
    }

    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent? {
        try willQuery()
        return try eventByKey(app: app, kind: "e", key: Array(eventId.utf8), ownKey: false)
    }

    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent? {
        try willQuery()
        return try eventByKey(app: app, kind: "k", key: idempotencyKeyHash, ownKey: false)
    }

    /// The app's event whose Idempotency-Key was its own eventId `key`, if any.
    func openEvent(app: String, ownKey key: String) throws(StoreError) -> OpenEvent? {
        try willQuery()
        return try eventByKey(app: app, kind: "e", key: Array(key.utf8), ownKey: true)
    }

    /// The event one key of `kind` names, read from its partition (`ownKey`: only if it
    /// kept its Idempotency-Key as its eventId).
    func eventByKey(app: String, kind: String, key: [UInt8], ownKey: Bool) throws(StoreError) -> OpenEvent? {
        var p = PGParams()
        p.text(app)
        p.text(kind)
        p.bytes(key)
        let rows = try db.run("pgq_open_key", Self.selectKeyOfKind, p)
        guard rows.rowCount > 0 else { return nil }
        return try event(id: rows.text(0, 0), at: rows.int(0, 1), ownKey: ownKey)
    }

    /// The event `id` of time `at` (`ownKey`: only if it kept its key as its eventId).
    func event(id: String, at: Int64, ownKey: Bool) throws(StoreError) -> OpenEvent? {
        var p = PGParams()
        p.text(id)
        p.int(at)
        return try Self.first(
            ownKey
                ? db.run("pgq_open_at_own_key", Self.selectOpenAtOwnKey, p)
                : db.run("pgq_open_at", Self.selectOpenAt, p),
            Self.decodeOpen)
    }

    // MARK: instances

    static let selectInstance = """
        SELECT app_id, instance_id, platform, first_open_id, created_at
        FROM app_instances WHERE app_id = $1 AND instance_id = $2
        """

    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance? {
        try willQuery()
        var p = PGParams()
        p.text(app)
        p.text(instance)
        return try Self.first(db.run("pgq_instance", Self.selectInstance, p)) { r, i throws(StoreError) in
            guard let platform = Platform(rawValue: r.text(i, 2)) else {
                throw ModelCodec.corrupt("app_instances.platform")
            }
            return AppInstance(
                appId: r.text(i, 0), instanceId: r.text(i, 1), platform: platform, firstOpenId: r.optionalText(i, 3),
                createdAt: r.int(i, 4))
        }
    }
}
