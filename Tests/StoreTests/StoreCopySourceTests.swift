import Core
import Model
import XCTest

@testable import Store

/// What `StoreCopy` refuses before it touches PostgreSQL (no server needed): a missing
/// file, a file of another schema version; and a server it cannot reach is told
/// without the password.
final class StoreCopySourceTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    func testAMissingFileIsRefused() {
        XCTAssertThrowsError(try StoreCopy.openSource(directory.databasePath)) { error in
            guard case .source(let message)? = error as? StoreCopyError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains(directory.databasePath), message)
        }
    }

    func testAFileOfAnOlderSchemaIsRefusedWithTheWayToUpgradeIt() throws {
        let db = try SQLiteConnection.open(
            path: directory.databasePath, create: true, busyTimeoutMilliseconds: 1_000, cacheKiB: 1_024,
            queryOnly: false)
        try Migrations.apply(on: db, migrations: Array(Migrations.all.dropLast()))
        db.close()
        let older = Migrations.all.dropLast().last!.version
        XCTAssertThrowsError(try StoreCopy.openSource(directory.databasePath)) { error in
            XCTAssertEqual(
                error as? StoreCopyError, .sourceVersion(found: older, supported: Migrations.latestVersion))
            XCTAssertTrue("\(error)".contains("start this biqli-edge's `serve`"), "\(error)")
        }
        // Only read: still the older version.
        let check = try SQLiteConnection.open(
            path: directory.databasePath, create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 1_024,
            queryOnly: true)
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Int64(older))
    }

    func testAnUnreachableServerIsToldWithoutThePassword() throws {
        let store = try SQLiteStore.open(dataDirectory: directory.path, readers: 1)
        store.close()
        // Port 1 on loopback: refused at once.
        let settings = try PGConnectionSettings("postgresql://edge:s3cr3t-never-shown@127.0.0.1:1/biqli")
        XCTAssertThrowsError(
            try StoreCopy.run(sqlitePath: directory.databasePath, to: settings, now: 1_700_000_000_000)
        ) { error in
            guard case .store(.unavailable)? = error as? StoreCopyError else { return XCTFail("\(error)") }
            XCTAssertFalse("\(error)".contains("s3cr3t"), "\(error)")
        }
    }
}
