import Core
import Model

/// The reads of open events and app instances on SQLite.
extension SQLiteQueries {
    // MARK: open events and instances

    static let openColumns = """
        id, app_id, instance_id, event_id, idempotency_key_hash, request_hash, platform, matched_by, first_open, \
        sdk_version, link_id, click_id, at, stored_response, receipt, receipt_expires_at, receipt_input
        """
    static let selectOpen = "SELECT \(openColumns) FROM open_events WHERE id = ?1"
    static let selectOpenByEvent = "SELECT \(openColumns) FROM open_events WHERE app_id = ?1 AND event_id = ?2"
    /// The `length` term names the partial index `open_events_idempotency`.
    static let selectOpenByIdempotency = """
        SELECT \(openColumns) FROM open_events
        WHERE app_id = ?1 AND idempotency_key_hash = ?2 AND length(idempotency_key_hash) > 0
        """
    /// An event whose Idempotency-Key was its own eventId (kept as an empty blob).
    static let selectOpenByOwnKey = """
        SELECT \(openColumns) FROM open_events
        WHERE app_id = ?1 AND event_id = ?2 AND length(idempotency_key_hash) = 0
        """
    static let selectRecentOpens =
        "SELECT \(openColumns) FROM open_events WHERE app_id = ?1 AND at >= ?2 ORDER BY at DESC, id DESC LIMIT ?3"

    static func decodeOpen(_ s: SQLiteStatement) throws(StoreError) -> OpenEvent {
        guard let platform = Platform(rawValue: s.text(6)) else { throw ModelCodec.corrupt("open_events.platform") }
        guard let matchedBy = MatchType(rawValue: s.text(7)) else {
            throw ModelCodec.corrupt("open_events.matched_by")
        }
        let eventId = s.text(3)
        // An empty blob stands for "the key was the eventId" (see SchemaV1).
        let keyHash = s.optionalBlob(4).map { $0.isEmpty ? SHA256.hash(eventId) : $0 }
        return OpenEvent(
            id: s.text(0), appId: s.text(1), appInstanceId: s.text(2), eventId: eventId,
            idempotencyKeyHash: keyHash, requestHash: s.blob(5), platform: platform, matchedBy: matchedBy,
            firstOpen: s.bool(8), sdkVersion: s.text(9), linkId: s.optionalText(10), clickId: s.optionalText(11),
            at: s.int64(12), storedResponse: s.blob(13), receipt: s.optionalBlob(14),
            receiptExpiresAt: s.isNull(15) ? nil : s.int64(15), receiptInput: s.optionalBlob(16))
    }

    func openEvent(id: String) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(Self.selectOpen, { $0.bind(1, id) }, row: Self.decodeOpen)
    }

    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(
            Self.selectOpenByEvent,
            { s in
                s.bind(1, app)
                s.bind(2, eventId)
            }, row: Self.decodeOpen)
    }

    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent? {
        try db.queryFirst(
            Self.selectOpenByIdempotency,
            { s in
                s.bind(1, app)
                s.bind(2, idempotencyKeyHash)
            }, row: Self.decodeOpen)
    }

    static let selectInstance = """
        SELECT app_id, instance_id, platform, first_open_id, created_at
        FROM app_instances WHERE app_id = ?1 AND instance_id = ?2
        """

    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance? {
        try db.queryFirst(
            Self.selectInstance,
            { s in
                s.bind(1, app)
                s.bind(2, instance)
            }
        ) { s throws(StoreError) in
            guard let platform = Platform(rawValue: s.text(2)) else {
                throw ModelCodec.corrupt("app_instances.platform")
            }
            return AppInstance(
                appId: s.text(0), instanceId: s.text(1), platform: platform, firstOpenId: s.optionalText(3),
                createdAt: s.int64(4))
        }
    }
}
