import CSQLite
import Model

/// One SQLite connection with its cache of prepared statements.
///
/// Not thread-safe (opened with `SQLITE_OPEN_NOMUTEX`): each connection belongs to
/// one thread at a time, the writer's to the writer thread, each reader's to its
/// event loop. Statements are prepared once with `SQLITE_PREPARE_PERSISTENT` and
/// kept by SQL text; every use resets the statement before returning, so no read
/// transaction outlives the call (a held one would stop checkpoints).
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: OpaquePointer] = [:]
    private var byAddress: [UInt: (sql: String, statement: OpaquePointer)] = [:]
    private var closed = false

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    /// Opens (creating when `create`) the file and applies the per-connection settings.
    /// `vfs`: a registered VFS name (the writer's `CoalescingVFS`), nil for the default.
    static func open(
        path: String, create: Bool, busyTimeoutMilliseconds: Int32, cacheKiB: Int, queryOnly: Bool,
        vfs: String? = nil
    ) throws(StoreError) -> SQLiteConnection {
        _ = SQLiteLibrary.configured
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        let rc = sqlite3_open_v2(path, &db, flags, vfs)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            if let db { sqlite3_close_v2(db) }
            throw .backend(code: rc, message: "open: " + message)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        let connection = SQLiteConnection(handle: db, path: path)
        try connection.exec("PRAGMA foreign_keys = ON")
        try connection.exec("PRAGMA synchronous = NORMAL")
        try connection.exec("PRAGMA temp_store = MEMORY")
        try connection.exec("PRAGMA cache_size = -\(max(cacheKiB, 64))")
        if queryOnly { try connection.exec("PRAGMA query_only = 1") }
        return connection
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        for (_, statement) in statements { sqlite3_finalize(statement) }
        statements = [:]
        byAddress = [:]
        sqlite3_close_v2(handle)
    }

    // MARK: running SQL

    /// Runs one or more statements without caching them (set-up, migrations, transaction control).
    func exec(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw error(rc) }
    }

    /// The cached statement for `sql`, prepared on first use.
    ///
    /// The SQL of the hot paths is in `static let`s, so the same text arrives
    /// with the same storage every time: a first lookup by storage address
    /// (confirmed by `==`, which is O(1) for identical storage) avoids hashing
    /// a few hundred bytes of SQL per statement.
    func statement(_ sql: String) throws(StoreError) -> SQLiteStatement {
        let address = Self.storageAddress(sql)
        if address != 0, let hit = byAddress[address], hit.sql == sql { return SQLiteStatement(handle: hit.statement) }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw error(rc) }
            statements[sql] = prepared
            statement = prepared
        }
        if address != 0 { byAddress[address] = (sql, statement) }
        return SQLiteStatement(handle: statement)
    }

    /// The address of a heap-allocated string's bytes; 0 for small (inline) strings,
    /// whose bytes have no stable address and are cheap to hash anyway.
    private static func storageAddress(_ sql: String) -> UInt {
        guard sql.utf8.count > 15 else { return 0 }
        return sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
    }

    /// Steps once: true when a row is available, false when done.
    @inline(__always)
    func step(_ statement: SQLiteStatement) throws(StoreError) -> Bool {
        let rc = sqlite3_step(statement.handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw error(rc)
    }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ bind: (SQLiteStatement) -> Void = { _ in }) throws(StoreError) -> Int {
        let statement = try statement(sql)
        defer { sqlite3_reset(statement.handle) }
        bind(statement)
        while try step(statement) {}
        return Int(sqlite3_changes(handle))
    }

    /// `execute` for the writer's hot inserts: `bind` binds texts and blobs with
    /// `SQLITE_STATIC` into `arena` (reset first); the bindings are cleared after
    /// the step, before anything can reuse the arena's bytes.
    @discardableResult
    func executeStatic(_ statement: SQLiteStatement, arena: BindArena, _ bind: (StaticInsert) -> Void)
        throws(StoreError) -> Int
    {
        arena.reset()
        defer {
            sqlite3_reset(statement.handle)
            sqlite3_clear_bindings(statement.handle)
        }
        bind(StaticInsert(statement: statement, arena: arena))
        while try step(statement) {}
        return Int(sqlite3_changes(handle))
    }

    /// The first row mapped by `row`, or nil.
    func queryFirst<R>(
        _ sql: String, _ bind: (SQLiteStatement) -> Void = { _ in },
        row: (SQLiteStatement) throws(StoreError) -> R
    ) throws(StoreError) -> R? {
        let statement = try statement(sql)
        defer { sqlite3_reset(statement.handle) }
        bind(statement)
        guard try step(statement) else { return nil }
        return try row(statement)
    }

    /// Every row mapped by `row`.
    func queryAll<R>(
        _ sql: String, _ bind: (SQLiteStatement) -> Void = { _ in },
        row: (SQLiteStatement) throws(StoreError) -> R
    ) throws(StoreError) -> [R] {
        let statement = try statement(sql)
        defer { sqlite3_reset(statement.handle) }
        bind(statement)
        var rows: [R] = []
        while try step(statement) { rows.append(try row(statement)) }
        return rows
    }

    /// Steps through the rows while `row` returns true (a scan that stops early).
    func forEachRow(
        _ sql: String, _ bind: (SQLiteStatement) -> Void = { _ in },
        row: (SQLiteStatement) throws(StoreError) -> Bool
    ) throws(StoreError) {
        let statement = try statement(sql)
        defer { sqlite3_reset(statement.handle) }
        bind(statement)
        while try step(statement) {
            if !(try row(statement)) { return }
        }
    }

    /// An integer pragma or single-value query.
    func integer(_ sql: String) throws(StoreError) -> Int64 {
        try queryFirst(sql) { s in s.int64(0) } ?? 0
    }

    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    // MARK: errors

    /// The store error for result code `rc`, with SQLite's message (which names
    /// tables and columns, never bound values, so it is safe to log).
    func error(_ rc: Int32) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        return SQLiteErrors.storeError(code: extended != 0 ? extended : rc, message: message)
    }
}
