import Core
import Model
import XCTest

@testable import Store

/// Every field of domains, apps, links, keys and records survives a write and a
/// read, through a loop's reader and inside a transaction.
final class CatalogRoundTripTests: StoreTestCase {
    func testThePublishableKeysVersionMovesWithKeysOnly() throws {
        try seedCatalog()
        let start = store.publishableKeysVersion
        try write { tx in try tx.insertClick(Fixture.click(id: "biq_clk_1", at: 1)) }
        XCTAssertEqual(store.publishableKeysVersion, start, "a click is no key change")
        try write { tx in
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_v", appId: Fixture.appId, keyHash: [9], hint: "v", createdAt: 1))
        }
        let afterPut = store.publishableKeysVersion
        XCTAssertGreaterThan(afterPut, start, "visible as soon as the write returns")
        XCTAssertNotNil(try write { tx in try tx.deleteApp(Fixture.appId) })
        XCTAssertGreaterThan(store.publishableKeysVersion, afterPut, "deleting an app revokes its keys")
    }

}
