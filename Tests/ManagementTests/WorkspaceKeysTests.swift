import Core
import Model
import Store
import XCTest

@testable import Management

/// The operations behind `biqli-edge keys`: a key is returned once and stored hashed;
/// revocation is idempotent and says what it did.
final class WorkspaceKeysTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "mgmt-keys")
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func testCreateReturnsAWellFormedKeyStoredOnlyAsItsHash() throws {
        let key = try WorkspaceKeys.create(name: "ci", store: store, now: 5)
        XCTAssertTrue(ManagementAuth.isWellFormed(key))
        let records = try store.reader(loop: 0).secretKeys()
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records[0].name, "ci")
        XCTAssertEqual(records[0].keyHash, SHA256.hash(key))
        XCTAssertEqual(records[0].hint, String(key.suffix(4)))
        XCTAssertEqual(records[0].createdAt, 5)
        XCTAssertNotNil(try store.reader(loop: 0).secretKey(hash: SHA256.hash(key)))
    }

    func testRevokeSaysWhatItDid() throws {
        _ = try WorkspaceKeys.create(name: "ops", store: store, now: 1)
        let id = try store.reader(loop: 0).secretKeys()[0].id
        XCTAssertEqual(try WorkspaceKeys.revoke(id: id, store: store, now: 7), .revoked)
        XCTAssertEqual(try store.reader(loop: 0).secretKeys()[0].revokedAt, 7)
        XCTAssertEqual(try WorkspaceKeys.revoke(id: id, store: store, now: 9), .alreadyRevoked)
        XCTAssertEqual(try store.reader(loop: 0).secretKeys()[0].revokedAt, 7)
        XCTAssertEqual(try WorkspaceKeys.revoke(id: "sk_nope", store: store, now: 9), .notFound)
    }

    func testAScopedKeyKeepsItsScopesAndDoesNotOpenTheConsole() throws {
        let full = try WorkspaceKeys.create(name: "ops", store: store, now: 1)
        let shop = try WorkspaceKeys.create(name: "shop", scopes: [.conversionsCreate], store: store, now: 2)
        let reader = store.reader(loop: 0)
        XCTAssertNil(try reader.secretKey(hash: SHA256.hash(full))?.scopes)
        XCTAssertEqual(try reader.secretKey(hash: SHA256.hash(shop))?.scopes, [.conversionsCreate])
        XCTAssertNotNil(try WorkspaceOperations.authenticate(key: full, reader: reader))
        XCTAssertNil(try WorkspaceOperations.authenticate(key: shop, reader: reader))
    }

    func testNamesAreOneLineOfAtMost64Characters() {
        XCTAssertNil(WorkspaceKeys.nameProblem("ops laptop"))
        XCTAssertNil(WorkspaceKeys.nameProblem(String(repeating: "n", count: 64)))
        XCTAssertNotNil(WorkspaceKeys.nameProblem(String(repeating: "n", count: 65)))
        XCTAssertNotNil(WorkspaceKeys.nameProblem("a\nb"))
    }
}
