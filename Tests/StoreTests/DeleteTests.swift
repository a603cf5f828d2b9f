import Core
import Model
import XCTest

@testable import Store

/// What deleting an app, a domain or a link does to the rows around it.
final class DeleteTests: StoreTestCase {
    func testDeletingAnAppRevokesItsKeysDetachesDomainsAndTurnsLinksIntoWebLinks() throws {
        try seedCatalog()
        try write { tx in
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_1", appId: Fixture.appId, keyHash: [1], hint: "a", createdAt: 1))
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk_0", appId: Fixture.appId, keyHash: [0], hint: "b", createdAt: 0, revokedAt: 5))
        }
        XCTAssertNotNil(try reader.link(host: Fixture.host, key: "invite")?.mobile)
        let unlinked = try XCTUnwrap(try write { tx in try tx.deleteApp(Fixture.appId) })

        XCTAssertNil(try reader.app(Fixture.appId))
        XCTAssertEqual(try reader.apps(attachedTo: Fixture.host), [])
        XCTAssertEqual(try reader.domain(Fixture.host), Fixture.domain(), "the domain itself stays")
        let keys = try reader.publishableKeys(app: Fixture.appId)
        XCTAssertEqual(keys.map(\.revokedAt), [5, 1_700_000_000_000], "revoked now; an earlier revocation kept")
        XCTAssertFalse(try reader.publishableKey(hash: [1])!.isUsable(at: 0))
        let link = try reader.link(host: Fixture.host, key: "invite")
        XCTAssertNil(link?.mobile)
        XCTAssertEqual(link?.url, Fixture.link().url)
        XCTAssertEqual(unlinked, [try XCTUnwrap(link)], "the links it changed, as they now are")
        XCTAssertEqual(link?.updatedAt, 1_700_000_000_000)
        XCTAssertNil(try write { tx in try tx.deleteApp(Fixture.appId) }, "already gone")
        // The removed app's rows are really gone, so the id can be registered again.
        XCTAssertNil(writeError { tx in try tx.putApp(Fixture.app()) })
    }

    func testDeletingADomainDeletesItsLinksAndDetachesIt() throws {
        try seedCatalog()
        XCTAssertTrue(try write { tx in try tx.deleteDomain(Fixture.host) })
        XCTAssertNil(try reader.domain(Fixture.host))
        XCTAssertNil(try reader.link(id: Fixture.linkId))
        XCTAssertNil(try reader.link(host: Fixture.host, key: "invite"))
        XCTAssertEqual(try reader.app(Fixture.appId)?.domains, [])
        XCTAssertFalse(try write { tx in try tx.deleteDomain(Fixture.host) })
    }

    func testDeletingALink() throws {
        try seedCatalog()
        XCTAssertTrue(try write { tx in try tx.deleteLink(id: Fixture.linkId) })
        XCTAssertNil(try reader.link(host: Fixture.host, key: "invite"))
        XCTAssertFalse(try write { tx in try tx.deleteLink(id: Fixture.linkId) })
    }
}
