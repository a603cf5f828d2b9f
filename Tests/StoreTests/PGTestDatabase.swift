import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// A fresh PostgreSQL database on the cluster that `BIQLI_TEST_POSTGRES_URL` names (an
/// admin URL such as `postgresql://postgres@127.0.0.1:5432/postgres`; `scripts/test`
/// starts a throwaway cluster and sets it), migrated, with the daily partitions from
/// 100 days before `now` through 14 days after, collating text as `en-US` does (ICU).
/// `drop()` removes it.
///
/// Each one is a copy (`CREATE DATABASE ... TEMPLATE`) of a template database that has
/// exactly those schema steps and partitions, made once per cluster by whichever test
/// process needs it first and kept: copying costs a fraction of migrating and making 230
/// partitions, which every case of the PostgreSQL store suites did before.
final class PGTestDatabase {
    static let variable = "BIQLI_TEST_POSTGRES_URL"

    let name: String
    let url: String
    private let admin: PGConnection

    /// Throws `XCTSkip` when the variable is not set. `migrations`: the schema steps to
    /// apply (all of them by default).
    init(now: Int64, migrations: [Migration] = PGMigrations.all) throws {
        let adminURL = getenv(Self.variable).map { String(cString: $0) } ?? ""
        if adminURL.isEmpty { throw XCTSkip("\(Self.variable) not set") }
        admin = try PGConnection.connect(PGConnectionSettings(adminURL))
        try admin.execute("SET synchronous_commit = off")
        name = "biqli_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        url = Self.url(adminURL, database: name)
        let from = PGPartitions.day(of: now - 100 * PGPartitions.dayMilliseconds)
        let through = PGPartitions.day(of: now + PGPartitions.daysAhead * PGPartitions.dayMilliseconds)
        let template = try Self.template(
            admin: admin, adminURL: adminURL, migrations: migrations, days: from...through)
        try admin.execute("CREATE DATABASE \(name) TEMPLATE \(template)")
    }

    /// The templates' lock (a session advisory lock on the admin database): processes
    /// needing the same template at once make it once.
    private static let templateLockKey: Int64 = 0x6269_716C_6974

    /// The name of the template database with `migrations` applied and the partitions of
    /// `days`, made when the cluster has none yet. The name is a digest of the steps' SQL
    /// and the days, so a changed step or another day gets a template of its own; it is
    /// made under another name and renamed when complete, so that a process killed
    /// midway leaves no half-made template behind that name.
    private static func template(
        admin: PGConnection, adminURL: String, migrations: [Migration], days: ClosedRange<Int64>
    ) throws -> String {
        var key = "\(days.lowerBound) \(days.upperBound)"
        for migration in migrations { key += "\n\(migration.version)\n\(migration.sql)" }
        let name = "biqli_test_template_" + SHA256.hex(SHA256.hash(key).prefix(12))
        try admin.execute("SELECT pg_advisory_lock(\(templateLockKey))")
        defer { try? admin.execute("SELECT pg_advisory_unlock(\(templateLockKey))") }
        let found = try admin.run("test_template_exists", "SELECT 1 FROM pg_database WHERE datname = '\(name)'")
        if found.rowCount > 0 { return name }
        let making = "biqli_test_making_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        // A linguistic collation, as production databases usually have (en_US.UTF-8), so
        // that every order the store promises is checked to be byte order regardless;
        // the server's default where ICU is missing. Copies keep the template's.
        do {
            try admin.execute(
                "CREATE DATABASE \(making) TEMPLATE template0 ENCODING 'UTF8' LOCALE 'C.UTF-8' LOCALE_PROVIDER icu "
                    + "ICU_LOCALE 'en-US'")
        } catch {
            try admin.execute("CREATE DATABASE \(making)")
        }
        do {
            // Closed (deinit) before the rename: a database with a session cannot be renamed or copied.
            let connection = try PGConnection.connect(PGConnectionSettings(url(adminURL, database: making)))
            try connection.execute("SET synchronous_commit = off")
            try PGMigrations.apply(on: connection, migrations: migrations)
            try PGPartitions.ensure(
                on: connection, from: days.lowerBound * PGPartitions.dayMilliseconds,
                through: days.upperBound * PGPartitions.dayMilliseconds)
        }
        try admin.execute("ALTER DATABASE \(making) RENAME TO \(name)")
        return name
    }

    /// A new connection to the test database.
    func connect() throws -> PGConnection {
        let connection = try PGConnection.connect(PGConnectionSettings(url))
        // Tests need no durability: a commit need not wait for the disk.
        try connection.execute("SET synchronous_commit = off")
        return connection
    }

    /// Drops the database, closing whatever connections are still open to it.
    func drop() {
        try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `adminURL` with its database (the path) replaced by `database`.
    static func url(_ adminURL: String, database: String) -> String {
        var base = Substring(adminURL)
        var query = Substring("")
        if let q = base.firstIndex(of: "?") {
            query = base[q...]
            base = base[..<q]
        }
        if let scheme = base.range(of: "://"), let slash = base[scheme.upperBound...].firstIndex(of: "/") {
            base = base[..<slash]
        }
        return base + "/" + database + query
    }
}

/// A test case with a fresh PostgreSQL database, a `PGTransaction` on one connection
/// (driven as the writer drives it: `beginBatch`, BEGIN, the body, `flushPending`,
/// COMMIT) and a `PGQueries` on another connection that sees only what was committed.
class PGTestCase: XCTestCase {
    /// The clock of the batches (as `StoreTestCase`'s): partitions are made around it.
    static let now: Int64 = 1_700_000_000_000
    var now: Int64 { Self.now }

    var database: PGTestDatabase!
    var db: PGConnection!
    var tx: PGTransaction!
    var reader: PGQueries!
    private var sqlite: (directory: TemporaryDirectory, store: SQLiteStore)?

    override func setUpWithError() throws {
        database = try PGTestDatabase(now: Self.now)
        db = try database.connect()
        tx = PGTransaction(db: db)
        reader = PGQueries(db: try database.connect())
    }

    override func tearDown() {
        tx = nil
        reader = nil
        db = nil
        database?.drop()
        database = nil
        if let (directory, store) = sqlite {
            store.close()
            directory.remove()
        }
        sqlite = nil
    }

    /// Runs `body` in one committed transaction (the writer's sequence); rolls back when it throws.
    @discardableResult
    func inTransaction<T>(deferInserts: Bool = true, _ body: (PGTransaction) throws -> T) throws -> T {
        tx.beginBatch(now: now)
        tx.deferInserts = deferInserts
        try db.execute("BEGIN")
        do {
            let result = try body(tx)
            try tx.flushPending()
            try db.execute("COMMIT")
            return result
        } catch {
            try? db.execute("ROLLBACK")
            tx.discardPending()
            throw error
        }
    }

    /// The StoreError the transaction failed with, or nil when it committed.
    func transactionError<T>(_ body: (PGTransaction) throws -> T) -> StoreError? {
        do {
            try inTransaction(body)
            return nil
        } catch let error as StoreError {
            return error
        } catch {
            return .backend(code: -1, message: "not a StoreError: \(error)")
        }
    }

    /// A SQLite store with the same clock, made on first use: the reference.
    var sqliteStore: SQLiteStore {
        get throws {
            if let sqlite { return sqlite.store }
            let directory = TemporaryDirectory()
            var options = SQLiteStore.Options()
            options.clock = { PGTestCase.now }
            let store = try SQLiteStore.open(dataDirectory: directory.path, readers: 1, options: options)
            sqlite = (directory, store)
            return store
        }
    }

    /// Applies `writes` to the SQLite store and to PostgreSQL (each in one transaction)
    /// and checks that they fail alike; returns PostgreSQL's error.
    @discardableResult
    func applyToBoth(
        _ writes: @escaping @Sendable (any StoreTransaction) throws -> Void, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StoreError? {
        var sqliteError: StoreError?
        do {
            try sqliteStore.writeAndWait(writes)
        } catch let error as StoreError {
            sqliteError = error
        }
        let pgError = transactionError { tx in try writes(tx) }
        XCTAssertEqual(pgError, sqliteError, "the two stores fail differently", file: file, line: line)
        return pgError
    }

    /// Checks that `read` answers the same from SQLite's reader, PostgreSQL's reader and
    /// PostgreSQL's transaction.
    func assertSameAsSQLite<T: Equatable>(
        _ what: String, _ read: (any StoreReader) throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let expected = try read(sqliteStore.reader(loop: 0))
        XCTAssertEqual(try read(reader), expected, what + " (reader)", file: file, line: line)
        let inTransaction = try self.inTransaction { tx in try read(tx) }
        XCTAssertEqual(inTransaction, expected, what + " (transaction)", file: file, line: line)
    }

    /// A number from a query on the test database.
    func integer(_ sql: String) throws -> Int64 {
        let connection = try reader.db
        return try connection.run("test_" + String(UInt64(bitPattern: Int64(sql.hashValue)), radix: 16), sql)
            .int(0, 0)
    }
}
