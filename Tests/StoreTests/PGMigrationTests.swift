import Core
import Model
import XCTest

@testable import Store

/// The PostgreSQL schema's versions: applied once, refused when newer than the binary.
final class PGMigrationTests: XCTestCase {
    var database: PGTestDatabase!

    override func setUpWithError() throws {
        database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
    }

    override func tearDown() {
        database?.drop()
    }

    func testASecondRunFindsTheSchemaCurrentAndChangesNothing() throws {
        let connection = try database.connect()
        XCTAssertEqual(try PGMigrations.apply(on: connection), PGMigrations.latestVersion)
        XCTAssertEqual(try PGMigrations.version(connection), PGMigrations.latestVersion)
    }

    func testANewerSchemaThatKeptThisVersionCompatibleIsUsed() throws {
        // A rolling upgrade: a newer binary added a step that this one may run beside.
        let connection = try database.connect()
        try connection.execute("UPDATE biqli_schema SET version = \(PGMigrations.latestVersion + 1)")
        XCTAssertEqual(try PGMigrations.apply(on: connection), PGMigrations.latestVersion + 1)
        let store = try PGStore.open(settings: try PGConnectionSettings(database.url), readers: 1)
        store.close()
    }

    func testASchemaNewerThanTheBinaryIsRefused() throws {
        let connection = try database.connect()
        try connection.execute(
            "UPDATE biqli_schema SET version = \(PGMigrations.latestVersion + 1), "
                + "compatible_from = \(PGMigrations.latestVersion + 1)")
        XCTAssertThrowsError(try PGMigrations.apply(on: connection)) { error in
            XCTAssertEqual(
                error as? StoreError,
                .schemaTooNew(found: PGMigrations.latestVersion + 1, supported: PGMigrations.latestVersion))
        }
        // And the store does not open on it.
        let settings = try PGConnectionSettings(database.url)
        XCTAssertThrowsError(try PGStore.open(settings: settings, readers: 1)) { error in
            guard case .schemaTooNew = error as? StoreError else { return XCTFail("\(error)") }
        }
    }

    func testAFailingStepLeavesThePreviousVersion() throws {
        let connection = try database.connect()
        let broken = PGMigrations.all + [Migration(version: PGMigrations.latestVersion + 1, sql: "CREATE TABLE x (;")]
        XCTAssertThrowsError(try PGMigrations.apply(on: connection, migrations: broken))
        XCTAssertEqual(try PGMigrations.version(connection), PGMigrations.latestVersion)
    }

    // MARK: the tests-only steps of a rolling upgrade (BIQLI_EDGE_TEST_EXTRA_MIGRATION)

    private func open(_ testMigration: PGTestMigration?) throws -> PGStore {
        var options = PGStore.Options()
        options.testMigration = testMigration
        return try PGStore.open(settings: try PGConnectionSettings(database.url), readers: 1, options: options)
    }

    func testAnAdditiveStepKeepsOldBinariesRunningBesideIt() throws {
        let latest = PGMigrations.latestVersion
        let newer = try open(.additive)
        XCTAssertEqual(newer.knownSchemaVersion, latest + 1)
        let connection = try database.connect()
        XCTAssertEqual(try PGMigrations.version(connection), latest + 1)
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), 1)
        // The old binary, beside it and again after it.
        let older = try open(nil)
        XCTAssertEqual(older.knownSchemaVersion, latest)
        older.close()
        newer.close()
        XCTAssertEqual(try PGMigrations.apply(on: connection), latest + 1)
    }

    func testABreakingStepAboveABinaryMakesItRefuseTheSchema() throws {
        let latest = PGMigrations.latestVersion
        try open(.additive).close()
        let breaking = try open(.breaking)
        XCTAssertEqual(breaking.knownSchemaVersion, latest + 2)
        breaking.close()
        let connection = try database.connect()
        XCTAssertEqual(try PGMigrations.compatibleFrom(connection), latest + 2)
        for older in [nil, PGTestMigration.additive] {
            XCTAssertThrowsError(try open(older)) { error in
                XCTAssertEqual(
                    error as? StoreError,
                    .schemaTooNew(found: latest + 2, supported: latest + (older == nil ? 0 : 1)))
            }
        }
        XCTAssertNoThrow(try open(.breaking).close())
    }
}
