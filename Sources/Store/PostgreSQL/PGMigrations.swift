import Model

/// The PostgreSQL schema's numbered steps and the code that applies them at start-up.
///
/// The version lives in `biqli_schema` (one row). Every step runs in its own
/// transaction together with its new version, all under one session advisory lock:
/// several edges starting at once migrate exactly once (the others wait for the lock,
/// then find the schema current). A database whose version is above
/// `latestVersion` was written by a newer binary: opening it fails with
/// `schemaTooNew` rather than guessing.
enum PGMigrations {
    static let all: [Migration] = [
        Migration(version: 1, sql: PGSchemaV1.sql),
        Migration(version: 2, sql: PGSchemaV2.sql),
        Migration(version: 3, sql: PGSchemaV3.sql),
        Migration(version: 4, sql: PGSchemaV4.sql),
        Migration(version: 5, sql: PGSchemaV5.sql),
        Migration(version: 6, sql: PGSchemaV6.sql),
        Migration(version: 7, sql: PGSchemaV7.sql),
        Migration(version: 8, sql: PGSchemaV8.sql),
        Migration(version: 9, sql: PGSchemaV9.sql),
        Migration(version: 10, sql: PGSchemaV10.sql),
        Migration(version: 11, sql: PGSchemaV11.sql),
        Migration(version: 12, sql: PGSchemaV12.sql),
        Migration(version: 13, sql: PGSchemaV13.sql),
        Migration(version: 14, sql: PGSchemaV14.sql),
        Migration(version: 15, sql: PGSchemaV15.sql),
        Migration(version: 16, sql: PGSchemaV16.sql),
        Migration(version: 17, sql: PGSchemaV17.sql),
        Migration(version: 18, sql: PGSchemaV18.sql),
    ]

    /// Steps that older binaries cannot run beside (they change what those binaries read
    /// or write); a binary below such a step's version refuses the schema. Every step so
    /// far is additive. A new breaking step is added here with its version.
    static let breaking: Set<Int> = [1]

    static var latestVersion: Int { all.last?.version ?? 0 }

    /// The steps a binary applies and which of them are breaking: `all` and `breaking`,
    /// plus the steps of the tests-only hook (`PGTestMigration`) when it is set.
    static func plan(testMigration: PGTestMigration?) -> (migrations: [Migration], breaking: Set<Int>) {
        guard let testMigration else { return (all, breaking) }
        let extra = testMigration.steps(after: latestVersion)
        return (all + extra.migrations, breaking.union(extra.breaking))
    }

    /// The advisory lock's key: "biqli" as a number (any constant the edge owns).
    static let lockKey: Int64 = 0x6269_716C_6900

    /// Brings the database to `latestVersion`; returns the version found.
    @discardableResult
    static func apply(
        on connection: PGConnection, migrations: [Migration] = all, breaking: Set<Int> = PGMigrations.breaking
    ) throws(StoreError) -> Int {
        let supported = migrations.last?.version ?? 0
        var params = PGParams()
        params.int(lockKey)
        try connection.run("migrations_lock", "SELECT pg_advisory_lock($1)", params)
        defer { _ = try? connection.run("migrations_unlock", "SELECT pg_advisory_unlock($1)", params) }
        let found = try versionFound(connection, supported: supported)
        for migration in migrations where migration.version > found {
            try connection.execute("BEGIN")
            do throws(StoreError) {
                try step(migration, breaking: breaking, on: connection)
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
        return found
    }

    /// Brings the database to `latestVersion` inside the caller's open transaction, which
    /// then holds the schema with whatever else it writes (`migrate-store`: the schema and
    /// the copied rows commit together or not at all; PostgreSQL's DDL is transactional).
    /// The lock is the transaction's: an edge starting on the database meanwhile waits
    /// for the commit or the rollback, then finds the schema made or the database as it was.
    @discardableResult
    static func applyInTransaction(
        on connection: PGConnection, migrations: [Migration] = all, breaking: Set<Int> = PGMigrations.breaking
    ) throws(StoreError) -> Int {
        let supported = migrations.last?.version ?? 0
        var params = PGParams()
        params.int(lockKey)
        try connection.run("migrations_xact_lock", "SELECT pg_advisory_xact_lock($1)", params)
        let found = try versionFound(connection, supported: supported)
        for migration in migrations where migration.version > found {
            try step(migration, breaking: breaking, on: connection)
        }
        return found
    }

    /// The schema version the database holds (0 for a new one), under the caller's lock.
    /// A newer binary's (a rolling upgrade) is run on when it kept this binary's schema
    /// readable and writable (no step of this binary's then runs), else refused.
    private static func versionFound(_ connection: PGConnection, supported: Int) throws(StoreError) -> Int {
        try connection.execute("CREATE TABLE IF NOT EXISTS biqli_schema (version bigint NOT NULL)")
        let found = try version(connection)
        if found > supported, try compatibleFrom(connection) > supported {
            throw .schemaTooNew(found: found, supported: supported)
        }
        return found
    }

    /// One step and its version, in the open transaction.
    private static func step(_ migration: Migration, breaking: Set<Int>, on connection: PGConnection)
        throws(StoreError)
    {
        try connection.execute(migration.sql)
        var v = PGParams()
        v.int(Int64(migration.version))
        try connection.run("migrations_set", "UPDATE biqli_schema SET version = $1", v)
        if migration.version >= 2 {
            // The oldest binary version that still runs on this schema; never lowered, since
            // it may have been raised outside a step (sealed webhook secrets: decision 0031).
            let oldest = breaking.filter { $0 <= migration.version }.max() ?? 1
            var c = PGParams()
            c.int(Int64(oldest))
            try connection.run(
                "migrations_compatible",
                "UPDATE biqli_schema SET compatible_from = GREATEST(coalesce(compatible_from, 1), $1)", c)
        }
    }

    /// The oldest version whose binaries run on this schema (`compatible_from`, from
    /// schema 2 on; before, every binary needed the exact version).
    static func compatibleFrom(_ connection: PGConnection) throws(StoreError) -> Int {
        let column = try connection.run(
            "migrations_has_compatible",
            "SELECT 1 FROM information_schema.columns WHERE table_name = 'biqli_schema' AND column_name = 'compatible_from'"
        )
        guard column.rowCount == 1 else { return Int.max }
        let rows = try connection.run("migrations_compatible_from", "SELECT compatible_from FROM biqli_schema")
        return rows.rowCount == 1 ? Int(rows.int(0, 0)) : Int.max
    }

    /// The schema version (0 for an empty database; the row is made then).
    static func version(_ connection: PGConnection) throws(StoreError) -> Int {
        let rows = try connection.run("migrations_version", "SELECT version FROM biqli_schema")
        if rows.rowCount == 0 {
            try connection.execute("INSERT INTO biqli_schema VALUES (0)")
            return 0
        }
        return Int(rows.int(0, 0))
    }
}
