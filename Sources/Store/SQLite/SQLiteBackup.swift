import CSQLite
import Model

#if canImport(Glibc)
import Glibc
#endif

/// Copies of the SQLite store taken while an edge serves it (`biqli-edge backup`), and
/// the checks a copy passes before it is restored (`biqli-edge restore`).
///
/// The copy is SQLite's online backup API read inside one read transaction of its own
/// connection: the pages of one snapshot, whatever commits meanwhile (without that
/// transaction, every commit of the edge's writer between two steps would start the
/// copy over). In WAL mode a reader never blocks the writer, and the edge's
/// checkpoints are passive (`Checkpointer`): they stop at the copy's snapshot and never
/// wait for it, so visits are not paused; the WAL grows while the copy lasts and starts
/// over after it. The copy goes in steps with a short pause between them, so that the
/// copy's reads leave the disk to the edge's commits.
public enum SQLiteBackup {
    /// What a copy holds.
    public struct Copy: Sendable, Equatable {
        /// `PRAGMA user_version` of the copy: the schema it was written in.
        public var schemaVersion: Int
        /// Size of the copy, bytes.
        public var bytes: Int64
    }

    /// Copies the database at `source` into a new file `destination` (0600; refused when
    /// it exists), then checks the copy (`check`). Never writes to `source`.
    /// `pagesPerStep`: pages copied before each pause of `pauseMicroseconds`.
    public static func copy(
        from source: String, to destination: String, pagesPerStep: Int32 = 4_096, pauseMicroseconds: UInt32 = 1_000,
        busyTimeoutMilliseconds: Int32 = 5_000
    ) throws(StoreError) -> Copy {
        try copy(
            from: source, to: destination, pagesPerStep: pagesPerStep, pauseMicroseconds: pauseMicroseconds,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, betweenSteps: {})
    }

    /// `copy`, calling `betweenSteps` in each pause: the tests commit there, so that
    /// "the copy never holds the writer up" is a count of commits, not a time.
    static func copy(
        from source: String, to destination: String, pagesPerStep: Int32, pauseMicroseconds: UInt32,
        busyTimeoutMilliseconds: Int32, betweenSteps: () -> Void
    ) throws(StoreError) -> Copy {
        guard access(source, R_OK) == 0 else {
            throw .backend(code: SQLITE_CANTOPEN, message: "cannot read \(source)")
        }
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw .backend(code: SQLITE_CANTOPEN, message: "cannot create \(destination) (errno \(errno))")
        }
        close(fd)
        do throws(StoreError) {
            try copyPages(
                from: source, to: destination, pagesPerStep: pagesPerStep, pause: pauseMicroseconds,
                busyTimeout: busyTimeoutMilliseconds, betweenSteps: betweenSteps)
            let checked = try check(path: destination)
            guard checked.problems.isEmpty else {
                throw .backend(
                    code: SQLITE_CORRUPT,
                    message: "the copy fails PRAGMA integrity_check: "
                        + checked.problems.prefix(3).joined(separator: "; "))
            }
            var info = stat()
            let bytes = stat(destination, &info) == 0 ? Int64(info.st_size) : 0
            return Copy(schemaVersion: checked.schemaVersion, bytes: bytes)
        } catch {
            unlink(destination)
            unlink(destination + "-journal")
            throw error
        }
    }

    /// What `check` found.
    public struct Check: Sendable, Equatable {
        public var schemaVersion: Int
        /// `PRAGMA integrity_check`'s lines; empty when it said `ok`.
        public var problems: [String]
    }

    /// `PRAGMA integrity_check` and the schema version of the file at `path`, opened
    /// read-only (a copy that is not restored yet).
    public static func check(path: String) throws(StoreError) -> Check {
        let db = try openConnection(path, readOnly: true, busyTimeout: 5_000)
        defer { sqlite3_close_v2(db) }
        let version = try rows(db, "PRAGMA user_version").first.flatMap { Int($0) } ?? 0
        let lines = try rows(db, "PRAGMA integrity_check")
        return Check(schemaVersion: version, problems: lines == ["ok"] ? [] : lines)
    }

    private static func copyPages(
        from source: String, to destination: String, pagesPerStep: Int32, pause: UInt32, busyTimeout: Int32,
        betweenSteps: () -> Void
    ) throws(StoreError) {
        let src = try openConnection(source, readOnly: true, busyTimeout: busyTimeout)
        defer { sqlite3_close_v2(src) }
        let dst = try openConnection(destination, readOnly: false, busyTimeout: busyTimeout)
        defer { sqlite3_close_v2(dst) }
        // One snapshot for the whole copy: the read transaction stays open across steps.
        try exec(src, "BEGIN")
        defer { _ = sqlite3_exec(src, "COMMIT", nil, nil, nil) }
        _ = try rows(src, "SELECT count(*) FROM sqlite_schema")
        guard let backup = sqlite3_backup_init(dst, "main", src, "main") else {
            throw failure(dst, SQLITE_ERROR, "backup")
        }
        var rc = SQLITE_OK
        while true {
            rc = sqlite3_backup_step(backup, max(pagesPerStep, 1))
            if rc == SQLITE_DONE { break }
            if rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED {
                if pause > 0 { usleep(pause) }
                betweenSteps()
                continue
            }
            break
        }
        let finished = sqlite3_backup_finish(backup)
        if rc != SQLITE_DONE { throw failure(dst, rc, "backup step") }
        if finished != SQLITE_OK { throw failure(dst, finished, "backup") }
        // The copy's header says WAL, as the source's did: a single file instead, which
        // reads without a -wal or -shm beside it (the edge sets WAL again when it opens it).
        try exec(dst, "PRAGMA journal_mode = DELETE")
        // The copy is a file of its own now: make it durable before anyone relies on it.
        let fd = open(destination, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    private static func openConnection(_ path: String, readOnly: Bool, busyTimeout: Int32) throws(StoreError)
        -> OpaquePointer
    {
        _ = SQLiteLibrary.configured
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            if let db { sqlite3_close_v2(db) }
            throw .backend(code: rc, message: "open \(path): " + message)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
        return db
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw failure(db, rc, sql) }
    }

    /// The first column of every row, as text.
    private static func rows(_ db: OpaquePointer, _ sql: String) throws(StoreError) -> [String] {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(db, rc, sql) }
        defer { sqlite3_finalize(statement) }
        var out: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(db, step, sql) }
            out.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
        return out
    }

    private static func failure(_ db: OpaquePointer, _ rc: Int32, _ what: String) -> StoreError {
        .backend(code: rc, message: "\(what): " + String(cString: sqlite3_errmsg(db)))
    }
}
