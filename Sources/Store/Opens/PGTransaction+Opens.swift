import Model

/// Open events and app instances: the resolver's writes.
///
/// An event and its keys (`open_event_keys`: 'e' with the eventId, and 'k' with the
/// Idempotency-Key's hash when the key is not the eventId) go in one statement. The
/// keys are inserted `ON CONFLICT DO NOTHING` and the event only when every key went
/// in, so a taken key is told apart by its kind without an error: the transaction
/// stays usable, as SQLite's after a failed statement, and the keys written before
/// the conflict was seen are deleted again (rare: the resolver looks first).
extension PGTransaction {
    static let insertOpenSQL = """
        WITH instance AS (
            INSERT INTO app_instances (app_id, instance_id, platform, first_open_id, created_at)
            SELECT $2, $3, $20, $21, $22 WHERE $20::text IS NOT NULL
            ON CONFLICT (app_id, instance_id) DO UPDATE SET
                platform = excluded.platform,
                first_open_id = coalesce(app_instances.first_open_id, excluded.first_open_id)
        ), keys AS (
            INSERT INTO open_event_keys (app_id, kind, key, open_id, at)
            SELECT $2, v.kind, v.key, $1, $13 FROM (VALUES ('e'::"char", $17::bytea), ('k'::"char", $18::bytea)) v (kind, key)
            WHERE v.key IS NOT NULL
            ON CONFLICT DO NOTHING
            RETURNING kind
        ), event AS (
            INSERT INTO open_events (id, app_id, instance_id, event_id, idempotency_key_hash, request_hash, platform,
                                     matched_by, first_open, sdk_version, link_id, click_id, at, stored_response,
                                     receipt, receipt_expires_at, receipt_input)
            SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $19
            WHERE (SELECT count(*) FROM keys) = CASE WHEN $18::bytea IS NULL THEN 1 ELSE 2 END
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM keys WHERE kind = 'e'), (SELECT count(*) FROM keys WHERE kind = 'k'),
               (SELECT count(*) FROM event)
        """
    static let deleteOpenKeysSQL = """
        DELETE FROM open_event_keys
        WHERE app_id = $1 AND open_id = $2 AND ((kind = 'e' AND key = $3) OR (kind = 'k' AND key = $4))
        """

    /// Without the key text the hash is kept as given (an empty one as none), as in SQLite.
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError) {
        try willQuery()
        let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
        try insertOpen(event, keyColumn: hash, keyRow: hash, instance: nil)
    }

    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String) throws(StoreError) {
        try insertOpenEvent(event, idempotencyKey: idempotencyKey, instance: nil)
    }

    /// The resolver's first reads in one round trip: the instance, and the keys the
    /// idempotency rule looks for (by rank, as `selectIdempotencyKeys`); an event is then
    /// read only when a key names one.
    static let selectResolutionState = """
        SELECT 0 AS rank, NULL::text AS open_id, NULL::int8 AS at, platform, first_open_id, created_at
        FROM app_instances WHERE app_id = $1 AND instance_id = $5
        UNION ALL
        SELECT 1, open_id, at, NULL, NULL, NULL FROM open_event_keys WHERE app_id = $1 AND kind = 'e' AND key = $2
        UNION ALL
        SELECT 2, open_id, at, NULL, NULL, NULL FROM open_event_keys
        WHERE app_id = $1 AND kind = 'e' AND key = $3 AND $3 <> $2
        UNION ALL
        SELECT 3, open_id, at, NULL, NULL, NULL FROM open_event_keys WHERE app_id = $1 AND kind = 'k' AND key = $4
        ORDER BY rank
        """

    func resolutionState(app: String, instance: String, eventId: String, idempotencyKey: String, keyHash: [UInt8])
        throws(StoreError) -> (instance: AppInstance?, event: OpenEvent?)
    {
        try willQuery()
        var p = PGParams(capacity: 5)
        p.text(app)
        p.bytes(Array(eventId.utf8))
        p.bytes(Array(idempotencyKey.utf8))
        p.bytes(keyHash)
        p.text(instance)
        let rows = try db.run("pgt_resolution_state", Self.selectResolutionState, p)
        var found: AppInstance?
        var event: OpenEvent?
        for r in 0..<rows.rowCount {
            let rank = rows.int(r, 0)
            if rank == 0 {
                guard let platform = Platform(rawValue: rows.text(r, 3)) else {
                    throw ModelCodec.corrupt("app_instances.platform")
                }
                found = AppInstance(
                    appId: app, instanceId: instance, platform: platform, firstOpenId: rows.optionalText(r, 4),
                    createdAt: rows.int(r, 5))
            } else if event == nil {
                event = try self.event(id: rows.text(r, 1), at: rows.int(r, 2), ownKey: rank == 2)
            }
        }
        unusedKey = event == nil ? (app, eventId, idempotencyKey) : nil
        return (found, event)
    }

    /// Keeps the hash only when the key is not the eventId (an empty hash marks that
    /// case), after checking that no other event of the app holds the key in the other
    /// form (unless the idempotency lookup just said so); the keys' primary key checks
    /// the rest. The same rules and conflict names as `SQLiteTransaction`.
    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String, instance: AppInstance?) throws(StoreError) {
        try willQuery()
        let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
        let ownKey = idempotencyKey == event.eventId
        if let free = unusedKey, free.app == event.appId, free.eventId == event.eventId, free.key == idempotencyKey {
            unusedKey = nil
            try insertOpen(event, keyColumn: ownKey ? [] : hash, keyRow: ownKey ? nil : hash, instance: instance)
            return
        }
        if ownKey {
            if let hash, try openEvent(app: event.appId, idempotencyKeyHash: hash) != nil {
                throw .conflict(.idempotencyKey)
            }
            try insertOpen(event, keyColumn: [], keyRow: nil, instance: instance)
        } else {
            if try openEvent(app: event.appId, ownKey: idempotencyKey) != nil { throw .conflict(.idempotencyKey) }
            try insertOpen(event, keyColumn: hash, keyRow: hash, instance: instance)
        }
    }

    /// `keyColumn` goes to `open_events.idempotency_key_hash`; `keyRow`, when given,
    /// becomes the event's 'k' key. A taken key throws `.conflict`: "idempotency_key"
    /// before "event_id" when both are taken, as SQLite's unique indexes report them.
    /// With `instance`, the instance is written by the same statement (the resolver's
    /// `upsertAppInstance` before the event, without a round trip of its own).
    private func insertOpen(_ event: OpenEvent, keyColumn: [UInt8]?, keyRow: [UInt8]?, instance: AppInstance?)
        throws(StoreError)
    {
        unusedKey = nil
        let eventKey = Array(event.eventId.utf8)
        var p = PGParams(capacity: 22)
        p.text(event.id)
        p.text(event.appId)
        p.text(event.appInstanceId)
        p.text(event.eventId)
        p.bytes(keyColumn)
        p.bytes(event.requestHash)
        p.text(event.platform.rawValue)
        p.text(event.matchedBy.rawValue)
        p.bool(event.firstOpen)
        p.text(event.sdkVersion)
        p.text(event.linkId)
        p.text(event.clickId)
        p.int(event.at)
        p.bytes(event.storedResponse)
        p.bytes(event.receipt)
        p.int(event.receiptExpiresAt)
        p.bytes(eventKey)
        p.bytes(keyRow)
        p.bytes(event.receiptInput)
        p.text(instance?.platform.rawValue)
        p.text(instance?.firstOpenId)
        p.int(instance?.createdAt)
        let rows = try db.run("pgt_insert_open", Self.insertOpenSQL, p)
        if rows.int(0, 2) == 1 {
            if let linkId = event.linkId {
                counts.links.addOpen(
                    linkId: linkId, at: event.at, matchedBy: event.matchedBy, firstOpen: event.firstOpen)
            }
            return
        }
        let eventKeyWritten = rows.int(0, 0) == 1
        let hashKeyWritten = rows.int(0, 1) == 1
        if eventKeyWritten || hashKeyWritten {
            var d = PGParams()
            d.text(event.appId)
            d.text(event.id)
            d.bytes(eventKey)
            d.bytes(keyRow ?? [])
            try db.run("pgt_delete_open_keys", Self.deleteOpenKeysSQL, d)
        }
        throw .conflict(keyRow != nil && !hashKeyWritten ? .idempotencyKey : .eventId)
    }

    /// `created_at` keeps its first value and `first_open_id`, once set, never
    /// changes: the first accepted install attribution is immutable.
    static let upsertInstanceSQL = """
        INSERT INTO app_instances (app_id, instance_id, platform, first_open_id, created_at)
        VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (app_id, instance_id) DO UPDATE SET
            platform = excluded.platform,
            first_open_id = coalesce(app_instances.first_open_id, excluded.first_open_id)
        """

    func upsertAppInstance(_ instance: AppInstance) throws(StoreError) {
        try willQuery()
        var p = PGParams(capacity: 5)
        p.text(instance.appId)
        p.text(instance.instanceId)
        p.text(instance.platform.rawValue)
        p.text(instance.firstOpenId)
        p.int(instance.createdAt)
        try db.run("pgt_upsert_instance", Self.upsertInstanceSQL, p)
    }
}
