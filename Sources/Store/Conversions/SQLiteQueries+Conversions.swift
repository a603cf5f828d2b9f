import Core
import Model

/// Customers, leads and sales, and the clicks they name (decision 0024).
extension SQLiteQueries {
    // MARK: a click by its id

    /// How far from the time in its id a click is looked for, in the order tried: rows
    /// are in the order the writer committed them, which is time order only to within
    /// how long a click waited between its loop and the writer (milliseconds; seconds
    /// when the writer lags). A click written further than the last from its id's time
    /// (a loop's clock would have to jump) is not found. The first window is the one
    /// that matters for speed: the id is looked for by a scan of the window's rows, and a
    /// minute of clicks at a fleet's peak is millions of rows, 20 ms a few hundred.
    static let clickTimeWindows: [Int64] = [20, 1_000, 60_000]
    static let clickTimeSlack: Int64 = clickTimeWindows[clickTimeWindows.count - 1]

    /// The time in a click id (`biq_clk_` + ULID), nil for another shape.
    static func clickTime(_ id: String) -> Int64? {
        guard Identifier.isValid(id, prefix: Identifier.clickPrefix),
            let ms = ULID.milliseconds(id.dropFirst(Identifier.clickPrefix.utf8.count)), ms < UInt64(Int64.max / 2)
        else { return nil }
        return Int64(ms)
    }

    static let clickRowAtOrAfter = "SELECT rowid, at FROM clicks WHERE rowid >= ?1 ORDER BY rowid LIMIT 1"
    /// Two statements, not `SELECT min(rowid), max(rowid)`: SQLite answers a lone min()
    /// or max() from one end of the table, but both in one query scan every row (40 ms
    /// per lead at 300,000 clicks, measured by bench/conversions.py).
    static let firstClickRow = "SELECT rowid FROM clicks ORDER BY rowid LIMIT 1"
    static let lastClickRow = "SELECT rowid FROM clicks ORDER BY rowid DESC LIMIT 1"
    static let selectClickInRows = "SELECT \(clickColumns) FROM clicks WHERE rowid >= ?1 AND rowid < ?2 AND id = ?3"

    /// `clicks` has no index on its id (decision 0010) but is written in time order, and
    /// a click id holds its time: a binary search by rowid finds the rows of a time
    /// window around it (about 2 x log2(rows) look-ups by rowid), then the id is looked
    /// for among them; in a wider window only when the narrower did not hold it, so a
    /// known id costs a few hundred rows however busy the minute around it was.
    func conversionClick(id: String) throws(StoreError) -> Click? {
        guard let ms = Self.clickTime(id) else { return nil }
        guard let first = try db.queryFirst(Self.firstClickRow, row: { s in s.int64(0) }),
            let last = try db.queryFirst(Self.lastClickRow, row: { s in s.int64(0) })
        else { return nil }
        for window in Self.clickTimeWindows {
            let from = try firstClickRow(atOrAfter: ms - window, first: first, last: last)
            let to = try firstClickRow(atOrAfter: ms + window + 1, first: first, last: last)
            guard from < to else { continue }
            let found = try db.queryFirst(
                Self.selectClickInRows,
                { s in
                    s.bind(1, from)
                    s.bind(2, to)
                    s.bind(3, id)
                }, row: Self.decodeClick)
            if let found { return found }
        }
        return nil
    }

    /// The first rowid whose click is at `time` or later, reading the clicks as sorted by
    /// time (`last + 1` when none is).
    private func firstClickRow(atOrAfter time: Int64, first: Int64, last: Int64) throws(StoreError) -> Int64 {
        var low = first
        var high = last + 1
        while low < high {
            let middle = low + (high - low) / 2
            guard
                let (row, at) = try db.queryFirst(
                    Self.clickRowAtOrAfter, { $0.bind(1, middle) }, row: { s in (s.int64(0), s.int64(1)) })
            else {
                high = middle
                continue
            }
            if at < time { low = row + 1 } else { high = middle }
        }
        return low
    }

    // MARK: customers

    static let customerColumns = "id, external_id, name, email, avatar, click_id, link_id, created_at, updated_at"
    static let selectCustomer = "SELECT \(customerColumns) FROM customers WHERE external_id = ?1"

    static func decodeCustomer(_ s: SQLiteStatement) -> Customer {
        Customer(
            id: s.text(0), externalId: s.text(1), name: s.optionalText(2), email: s.optionalText(3),
            avatar: s.optionalText(4), clickId: s.optionalText(5), linkId: s.optionalText(6), createdAt: s.int64(7),
            updatedAt: s.int64(8))
    }

    func customer(externalId: String) throws(StoreError) -> Customer? {
        try db.queryFirst(Self.selectCustomer, { $0.bind(1, externalId) }, row: Self.decodeCustomer)
    }

    // MARK: leads and sales

    static let conversionColumns = """
        id, type, event_id, idempotency_key_hash, request_hash, event_name, customer_id, click_id, link_id, amount,
        currency, payment_processor, invoice_id, metadata, occurred_at, created_at, response, variant
        """
    static let selectConversionByEventId = "SELECT \(conversionColumns) FROM conversion_events WHERE event_id = ?1"
    static let selectConversionByKey =
        "SELECT \(conversionColumns) FROM conversion_events WHERE idempotency_key_hash = ?1"

    static func decodeConversion(_ s: SQLiteStatement) throws(StoreError) -> ConversionEvent {
        guard let type = ConversionType(rawValue: s.text(1)) else { throw ModelCodec.corrupt("conversion_events.type") }
        return ConversionEvent(
            id: s.text(0), type: type, eventId: s.text(2), idempotencyKeyHash: s.blob(3), requestHash: s.blob(4),
            eventName: s.text(5), customerId: s.text(6), clickId: s.optionalText(7), linkId: s.optionalText(8),
            amount: s.optionalInt64(9), currency: s.optionalText(10), paymentProcessor: s.optionalText(11),
            invoiceId: s.optionalText(12), metadata: s.optionalText(13), occurredAt: s.int64(14),
            createdAt: s.int64(15), response: s.blob(16), variant: s.optionalInt64(17).map { Int($0) })
    }

    func conversionEvent(eventId: String) throws(StoreError) -> ConversionEvent? {
        try db.queryFirst(Self.selectConversionByEventId, { $0.bind(1, eventId) }, row: Self.decodeConversion)
    }

    func conversionEvent(idempotencyKeyHash: [UInt8]) throws(StoreError) -> ConversionEvent? {
        try db.queryFirst(Self.selectConversionByKey, { $0.bind(1, idempotencyKeyHash) }, row: Self.decodeConversion)
    }

    // MARK: lists

    static let selectCustomersPage = """
        SELECT \(customerColumns) FROM customers WHERE id > ?1 ORDER BY id LIMIT ?2
        """

    func customers(after: String?, limit: Int) throws(StoreError) -> [Customer] {
        try db.queryAll(
            Self.selectCustomersPage,
            { s in
                s.bind(1, after ?? "")
                s.bind(2, limit)
            }, row: Self.decodeCustomer)
    }

    static let selectCustomerEvents = """
        SELECT \(conversionColumns) FROM conversion_events WHERE customer_id = ?1 ORDER BY occurred_at, id LIMIT ?2
        """

    func conversionEvents(customerId: String, limit: Int) throws(StoreError) -> [ConversionEvent] {
        try db.queryAll(
            Self.selectCustomerEvents,
            { s in
                s.bind(1, customerId)
                s.bind(2, limit)
            }, row: Self.decodeConversion)
    }

    /// `?1` the type or NULL, `?2` and `?3` the cursor event's time and id (or -1 and ''),
    /// `?4` the limit, `?5` the link. Ties of one millisecond go by the id's ULID, after its
    /// prefix (`biq_lev_`, `biq_sev_`: 8 characters): by the prefix, every lead of a
    /// millisecond would come before its sales, whatever the order they were recorded in.
    static let selectEventsPage = """
        SELECT \(conversionColumns) FROM conversion_events
        WHERE (created_at, substr(id, 9)) > (?2, substr(?3, 9)) AND (?1 IS NULL OR type = ?1)
        ORDER BY created_at, substr(id, 9) LIMIT ?4
        """
    static let selectLinkEventsPage = """
        SELECT \(conversionColumns) FROM conversion_events
        WHERE link_id = ?5 AND (created_at, substr(id, 9)) > (?2, substr(?3, 9)) AND (?1 IS NULL OR type = ?1)
        ORDER BY created_at, substr(id, 9) LIMIT ?4
        """
    static let selectEventTime = "SELECT created_at FROM conversion_events WHERE id = ?1"

    func conversionEvents(type: ConversionType?, linkId: String?, after: String?, limit: Int) throws(StoreError)
        -> [ConversionEvent]
    {
        var from: (Int64, String) = (-1, "")
        if let after {
            // A cursor naming no event (erased, or made up): from its id's time on.
            let at = try db.queryFirst(Self.selectEventTime, { $0.bind(1, after) }, row: { $0.int64(0) })
            from = (at ?? (ULID.milliseconds(after.dropFirst(8)).map { Int64($0) } ?? -1), after)
        }
        return try db.queryAll(
            linkId == nil ? Self.selectEventsPage : Self.selectLinkEventsPage,
            { s in
                s.bind(1, type?.rawValue)
                s.bind(2, from.0)
                s.bind(3, from.1)
                s.bind(4, limit)
                if let linkId { s.bind(5, linkId) }
            }, row: Self.decodeConversion)
    }
}
