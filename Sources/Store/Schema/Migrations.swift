import Model

/// One forward-only schema step: from `version - 1` to `version`.
struct Migration: Sendable {
    let version: Int
    let sql: String
}

/// The numbered migrations and the code that applies them at start-up.
///
/// The schema version lives in `PRAGMA user_version` (0 for a new file). All
/// pending steps run in one `BEGIN IMMEDIATE` transaction together with the new
/// `user_version`, so a crash mid-upgrade leaves the previous version intact. A
/// file whose version is above `latestVersion` was written by a newer binary:
/// opening it fails with `schemaTooNew` rather than guessing.
///
/// To change the schema: append `Migration(version: N+1, sql: SchemaVN1.sql)`,
/// and add the frozen SQL of version N as a test fixture
/// (`Tests/StoreTests/Fixtures`): the migration tests open every fixture.
enum Migrations {
    static let all: [Migration] = [
        Migration(version: 1, sql: SchemaV1.sql),
        Migration(version: 2, sql: SchemaV2.sql),
        Migration(version: 3, sql: SchemaV3.sql),
        Migration(version: 4, sql: SchemaV4.sql),
        Migration(version: 5, sql: SchemaV5.sql),
        Migration(version: 6, sql: SchemaV6.sql),
        Migration(version: 7, sql: SchemaV7.sql),
        Migration(version: 8, sql: SchemaV8.sql),
        Migration(version: 9, sql: SchemaV9.sql),
        Migration(version: 10, sql: SchemaV10.sql),
        Migration(version: 11, sql: SchemaV11.sql),
        Migration(version: 12, sql: SchemaV12.sql),
        Migration(version: 13, sql: SchemaV13.sql),
        Migration(version: 14, sql: SchemaV14.sql),
        Migration(version: 15, sql: SchemaV15.sql),
        Migration(version: 16, sql: SchemaV16.sql),
        Migration(version: 17, sql: SchemaV17.sql),
        Migration(version: 18, sql: SchemaV18.sql),
    ]

    static var latestVersion: Int { all.last?.version ?? 0 }

    /// Brings the file behind `connection` to `latestVersion`; returns the version found.
    @discardableResult
    static func apply(on connection: SQLiteConnection, migrations: [Migration] = all) throws(StoreError) -> Int {
        let supported = migrations.last?.version ?? 0
        let found = Int(try connection.integer("PRAGMA user_version"))
        if found > supported { throw .schemaTooNew(found: found, supported: supported) }
        if found == supported { return found }
        try connection.exec("BEGIN IMMEDIATE")
        do throws(StoreError) {
            // Re-read under the write lock: another process may have migrated meanwhile.
            let current = Int(try connection.integer("PRAGMA user_version"))
            if current > supported { throw .schemaTooNew(found: current, supported: supported) }
            for migration in migrations where migration.version > current {
                try connection.exec(migration.sql)
                try connection.exec("PRAGMA user_version = \(migration.version)")
            }
            try connection.exec("COMMIT")
        } catch {
            try? connection.exec("ROLLBACK")
            throw error
        }
        return found
    }
}
