import Model

/// The resolver's writes on SQLite: open events (the Idempotency-Key kept as a hash only
/// when it is not the eventId, decision 0008) and app instances.
extension SQLiteTransaction {
    static let insertOpenSQL = """
        INSERT INTO open_events (\(openColumns))
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
        """

    /// Without the key text the hash is kept as given (an empty one as none).
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError) {
        let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
        try insertOpen(event, keyColumn: hash)
    }

    /// Keeps the hash only when the key is not the eventId (an empty blob marks
    /// that case), after checking that no other event of the app holds the key in
    /// the other form (unless the idempotency lookup just said so); the unique
    /// indexes check the rest.
    func insertOpenEvent(_ event: OpenEvent, idempotencyKey: String) throws(StoreError) {
        if let free = unusedKey, free.app == event.appId, free.eventId == event.eventId, free.key == idempotencyKey {
            unusedKey = nil
            let hash = event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 }
            try insertOpen(event, keyColumn: idempotencyKey == event.eventId ? [] : hash)
            return
        }
        if idempotencyKey == event.eventId {
            if let hash = event.idempotencyKeyHash, !hash.isEmpty,
                try openEvent(app: event.appId, idempotencyKeyHash: hash) != nil
            {
                throw .conflict(.idempotencyKey)
            }
            try insertOpen(event, keyColumn: [])
        } else {
            let holder = try db.queryFirst(
                Self.selectOpenByOwnKey,
                { s in
                    s.bind(1, event.appId)
                    s.bind(2, idempotencyKey)
                }, row: { s in s.int64(12) })
            if holder != nil { throw .conflict(.idempotencyKey) }
            try insertOpen(event, keyColumn: event.idempotencyKeyHash.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    private func insertOpen(_ event: OpenEvent, keyColumn: [UInt8]?) throws(StoreError) {
        unusedKey = nil
        try db.executeStatic(hot(.insertOpen), arena: arena) { b in
            b.text(1, event.id)
            b.text(2, event.appId)
            b.text(3, event.appInstanceId)
            b.text(4, event.eventId)
            b.blob(5, keyColumn)
            b.blob(6, event.requestHash)
            b.text(7, event.platform.rawValue)
            b.text(8, event.matchedBy.rawValue)
            b.int(9, event.firstOpen ? 1 : 0)
            b.text(10, event.sdkVersion)
            b.text(11, event.linkId)
            b.text(12, event.clickId)
            b.int(13, event.at)
            b.blob(14, event.storedResponse)
            b.blob(15, event.receipt)
            b.int(16, event.receiptExpiresAt)
            b.blob(17, event.receiptInput)
        }
        if let linkId = event.linkId {
            counts.links.addOpen(linkId: linkId, at: event.at, matchedBy: event.matchedBy, firstOpen: event.firstOpen)
        }
    }

    /// `created_at` keeps its first value and `first_open_id`, once set, never
    /// changes: the first accepted install attribution is immutable.
    static let upsertInstanceSQL = """
        INSERT INTO app_instances (app_id, instance_id, platform, first_open_id, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (app_id, instance_id) DO UPDATE SET
            platform = excluded.platform,
            first_open_id = coalesce(app_instances.first_open_id, excluded.first_open_id)
        """

    func upsertAppInstance(_ instance: AppInstance) throws(StoreError) {
        try db.executeStatic(hot(.upsertInstance), arena: arena) { b in
            b.text(1, instance.appId)
            b.text(2, instance.instanceId)
            b.text(3, instance.platform.rawValue)
            b.text(4, instance.firstOpenId)
            b.int(5, instance.createdAt)
        }
    }
}
