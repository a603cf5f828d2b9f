import Core
import Model
import XCTest

@testable import Store

/// Uniqueness rules answer `.conflict(kind)` and broken references
/// `.missingReference(kind)`, and the failed write leaves nothing behind.
final class ConflictTests: StoreTestCase {
    func testKeyHashesAndHandoffsAndRecordsAreUnique() throws {
        try seedCatalog()
        try write { tx in
            try tx.putSecretKey(SecretKeyRecord(id: "sk_1", name: "a", keyHash: [1], hint: "a", createdAt: 1))
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_1", appId: Fixture.appId, keyHash: [2], hint: "b", createdAt: 1))
            try tx.insertHandoff(Fixture.handoff(token: 1, clickId: "biq_clk_1"))
            try tx.putIdempotencyRecord(
                IdempotencyRecord(scope: "s", keyHash: [3], requestHash: [], status: 200, body: [1], createdAt: 1))
        }
        XCTAssertEqual(
            writeError { tx in
                try tx.putSecretKey(SecretKeyRecord(id: "sk_2", name: "b", keyHash: [1], hint: "b", createdAt: 2))
            },
            .conflict(.secretKey))
        XCTAssertEqual(
            writeError { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk_2", appId: Fixture.appId, keyHash: [2], hint: "c", createdAt: 2))
            }, .conflict(.publishableKey))
        XCTAssertEqual(
            writeError { tx in try tx.insertHandoff(Fixture.handoff(token: 1, clickId: "biq_clk_2")) },
            .conflict(.handoff))
        XCTAssertEqual(
            writeError { tx in
                try tx.putIdempotencyRecord(
                    IdempotencyRecord(scope: "s", keyHash: [3], requestHash: [], status: 500, body: [], createdAt: 2))
            }, .conflict(.idempotencyRecord))
        // Click ids are not checked here: unique by how they are made (per-loop monotonic
        // ULIDs), and the table keeps no index on them (decision 0010).
    }

    func testMissingReferencesAreNamed() throws {
        try seedCatalog()
        XCTAssertEqual(
            writeError { tx in try tx.putLink(Fixture.link(id: "biq_lnk_2", host: "nowhere.example.com")) },
            .missingReference(.domain))
        XCTAssertEqual(
            writeError { tx in try tx.putLink(Fixture.link(id: "biq_lnk_2", key: "k2", appId: "biq_mapp_nobody")) },
            .missingReference(.app))
        XCTAssertEqual(
            writeError { tx in try tx.putApp(Fixture.app("biq_mapp_2", domains: ["nowhere.example.com"])) },
            .missingReference(.domain))
        XCTAssertNil(try reader.app("biq_mapp_2"))
        XCTAssertEqual(
            writeError { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk_9", appId: "biq_mapp_nobody", keyHash: [9], hint: "x", createdAt: 1))
            }, .missingReference(.app))
    }
}
