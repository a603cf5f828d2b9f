import Model

#if canImport(Glibc)
import Glibc
#endif

/// Copies an edge's SQLite store into an empty PostgreSQL database (`biqli-edge
/// migrate-store`): every table, handoffs and console sessions only while unexpired, open
/// events with the `open_event_keys` PostgreSQL keeps beside them.
///
/// ```swift
/// let report = try StoreCopy.run(sqlitePath: dir + "/edge.sqlite3", to: settings, now: nowMilliseconds)
/// for t in report.tables { print(t.table, t.copied) }
/// ```
///
/// The source is read in one SQLite read transaction (one snapshot, on a connection of
/// its own with `query_only`); the caller makes sure no edge serves from it. On the
/// target everything happens in ONE transaction: the schema is made (or brought up to
/// date), the tables are locked against other writers and must be empty, the day
/// partitions of the data's clicks and open events (and the coming days') are made, the
/// rows go in batches of `batchSize`, one `INSERT ... SELECT FROM unnest(...)` each, and
/// before COMMIT every table is counted on both sides. PostgreSQL's DDL is
/// transactional, so any failure or difference, the server's death included, leaves the
/// database as it was before the command: no table made, no row written.
public final class StoreCopy {
    /// Rows of one table: in the source (handoffs: the unexpired ones; `open_event_keys`:
    /// as many as its events make), and in the target, counted before the commit.
    public struct TableCount: Sendable, Equatable {
        public let table: String
        public let source: Int
        public let copied: Int
    }

    public struct Report: Sendable, Equatable {
        /// In copy order, `open_event_keys` last.
        public var tables: [TableCount]
        /// Handoffs of the source that had expired and were left out.
        public var expiredHandoffs: Int
        /// Console sessions of the source that had expired and were left out.
        public var expiredConsoleSessions: Int = 0
    }

    public static let defaultBatchSize = 1_000

    private let source: SQLiteConnection
    private let target: PGConnection
    private let now: Int64
    private let batchSize: Int

    private init(source: SQLiteConnection, target: PGConnection, now: Int64, batchSize: Int) {
        self.source = source
        self.target = target
        self.now = now
        self.batchSize = batchSize
    }

    /// Copies the store at `sqlitePath` into the database of `settings`. `now`
    /// (milliseconds) decides which handoffs are still unexpired and which days get
    /// partitions ahead.
    public static func run(
        sqlitePath: String, to settings: PGConnectionSettings, now: Int64, batchSize: Int = defaultBatchSize
    ) throws(StoreCopyError) -> Report {
        let source = try openSource(sqlitePath)
        defer { source.close() }
        let target: PGConnection
        do throws(StoreError) {
            target = try PGConnection.connect(settings)
            // The server's notices ("already exists, skipping") are not the operator's business.
            try target.execute("SET client_min_messages = warning")
        } catch {
            throw .store(error)
        }
        let copy = StoreCopy(source: source, target: target, now: now, batchSize: max(batchSize, 1))
        return try copy.run()
    }

    /// Opens the file read-only and checks that its schema is this binary's.
    static func openSource(_ path: String) throws(StoreCopyError) -> SQLiteConnection {
        guard access(path, F_OK) == 0 else { throw .source("no file at \(path)") }
        let db: SQLiteConnection
        let version: Int
        do throws(StoreError) {
            db = try SQLiteConnection.open(
                path: path, create: false, busyTimeoutMilliseconds: 5_000, cacheKiB: 16_384, queryOnly: true)
            version = Int(try db.integer("PRAGMA user_version"))
        } catch {
            throw .source("\(path): \(error.safeMessage)")
        }
        guard version == Migrations.latestVersion else {
            db.close()
            throw .sourceVersion(found: version, supported: Migrations.latestVersion)
        }
        return db
    }

    private func run() throws(StoreCopyError) -> Report {
        do {
            // One snapshot of the source for the counts, the days and every row.
            try source.exec("BEGIN")
            defer { try? source.exec("COMMIT") }
            return try copyInOneTransaction()
        } catch let error as StoreCopyError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.backend(code: -1, message: "\(error)"))
        }
    }

    // MARK: the target

    /// The tables of the target that hold a row.
    private func occupiedTables() throws(StoreError) -> [String] {
        var occupied: [String] = []
        for table in CopyTable.targetTables {
            let found = try target.run("copy_any_\(table)", "SELECT EXISTS (SELECT 1 FROM \(table))")
            if found.bool(0, 0) { occupied.append(table) }
        }
        return occupied
    }

    /// The day partitions of every day that holds a click or an open event, and of the
    /// days around now that `PGStore.open` makes (so that the edge starts on what it
    /// finds), in the copy's transaction.
    private func makePartitions() throws(StoreError) {
        var days = Set<Int64>()
        try source.forEachRow(
            """
            SELECT DISTINCT CASE WHEN at >= 0 THEN at / 86400000 ELSE (at - 86399999) / 86400000 END FROM clicks
            UNION SELECT DISTINCT CASE WHEN at >= 0 THEN at / 86400000 ELSE (at - 86399999) / 86400000 END
            FROM open_events
            """
        ) { s in
            days.insert(s.int64(0))
            return true
        }
        let today = PGPartitions.day(of: now)
        for d in (today - 1)...(today + PGPartitions.daysAhead) { days.insert(d) }
        // One `ensure` per run of consecutive days: no partition for the gaps between.
        var runStart: Int64?
        var previous: Int64 = 0
        for d in days.sorted() + [Int64.max] {
            if let start = runStart, d != previous + 1 {
                try PGPartitions.ensureInTransaction(
                    on: target, from: start * PGPartitions.dayMilliseconds,
                    through: previous * PGPartitions.dayMilliseconds)
                runStart = nil
            }
            if runStart == nil { runStart = d }
            previous = d
        }
    }

    private func copyInOneTransaction() throws -> Report {
        try target.execute("BEGIN")
        do {
            // Other writers (an edge already pointed at the database) wait or fail; readers go on.
            try target.execute("SET LOCAL lock_timeout = '10s'")
            try PGMigrations.applyInTransaction(on: target)
            try target.execute("LOCK TABLE \(CopyTable.targetTables.joined(separator: ", ")) IN EXCLUSIVE MODE")
            let occupied = try occupiedTables()
            if !occupied.isEmpty { throw StoreCopyError.targetNotEmpty(occupied) }
            try makePartitions()
            var counts: [TableCount] = []
            for table in CopyTable.all {
                do throws(StoreError) {
                    try copy(table)
                } catch {
                    throw StoreCopyError.copying(table: table.name, error)
                }
                counts.append(
                    TableCount(table: table.name, source: try sourceCount(table), copied: try targetCount(table.name)))
            }
            counts.append(
                TableCount(
                    table: OpenEventKeys.table, source: Int(try source.integer(OpenEventKeys.sourceCountSQL)),
                    copied: try targetCount(OpenEventKeys.table)))
            let differing = counts.filter { $0.source != $0.copied }
            if !differing.isEmpty { throw StoreCopyError.countsDiffer(differing) }
            do throws(StoreError) {
                try target.execute("COMMIT")
            } catch {
                // An error the server answered rolled everything back; a connection lost
                // meanwhile leaves the outcome unknown (whole or absent, never partial).
                if target.isBroken { throw StoreCopyError.commitUnknown(error) }
                throw error
            }
            func expired(_ table: String) throws(StoreError) -> Int {
                let all = Int(try source.integer("SELECT count(*) FROM \(table)"))
                return all - (counts.first { $0.table == table }?.source ?? 0)
            }
            return Report(
                tables: counts, expiredHandoffs: try expired("handoffs"),
                expiredConsoleSessions: try expired("console_sessions"))
        } catch {
            try? target.execute("ROLLBACK")
            throw error
        }
    }

    /// Sends the source rows of `table` in batches of `batchSize`, each one statement;
    /// the keys of a batch of open events follow it.
    private func copy(_ table: CopyTable) throws(StoreError) {
        var batch = CopyBatch(table: table, capacity: batchSize)
        let now = self.now
        func flush() throws(StoreError) {
            guard batch.count > 0 else { return }
            try target.run("copy_insert_\(table.name)", table.insertSQL, batch.params)
            if table.name == "open_events" {
                let keys = OpenEventKeys.rows(of: batch)
                try target.run("copy_insert_keys", OpenEventKeys.insertSQL, OpenEventKeys.params(keys))
            }
            batch.removeAll()
        }
        let bind: (SQLiteStatement) -> Void = { s in if table.sourceFilter != nil { s.bind(1, now) } }
        try source.forEachRow(table.selectSQL, bind) { s throws(StoreError) in
            batch.append(s)
            if batch.count >= batchSize { try flush() }
            return true
        }
        try flush()
    }

    /// The table's rows to copy, in the source's snapshot (handoffs: unexpired at `now`).
    private func sourceCount(_ table: CopyTable) throws(StoreError) -> Int {
        let now = self.now
        let bind: (SQLiteStatement) -> Void = { s in if table.sourceFilter != nil { s.bind(1, now) } }
        return try source.queryFirst(table.sourceCountSQL, bind) { s in s.int(0) } ?? 0
    }

    private func targetCount(_ table: String) throws(StoreError) -> Int {
        Int(try target.run("copy_count_\(table)", "SELECT count(*) FROM \(table)").int(0, 0))
    }
}
