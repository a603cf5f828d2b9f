import Core
import Model
import XCTest

@testable import Store

/// Decision 0031: what the keeper seals, with which key, and when it refuses.
final class WebhookSecretKeeperTests: StoreTestCase {
    let first = WebhookKeyring.Key(id: "wk_aaaa", bytes: Array(repeating: 1, count: 32))
    let second = WebhookKeyring.Key(id: "wk_bbbb", bytes: Array(repeating: 2, count: 32))

    func endpoint(previous: String? = nil) -> WebhookEndpoint {
        var e = WebhookStoreCases.endpoint("biq_whk_k", [.linkCreated])
        e.previousSecret = previous
        e.previousSecretExpiresAt = previous == nil ? nil : Int64.max
        return e
    }

    func testNothingIsSealedUntilSealingStarts() throws {
        let keeper = WebhookSecretKeeper(keyring: .init(keys: [first]), sealing: false, path: "k")
        let e = endpoint()
        XCTAssertEqual(try write { tx in try keeper.sealed(e, tx, now: 1) }, e)
        XCTAssertEqual(try reader.webhookSecretKeyIds(), [])
    }

    func testTheFirstSealRegistersTheKeyAndSealsBothSecrets() throws {
        let keeper = WebhookSecretKeeper(keyring: .init(keys: [first]), sealing: true, path: "k")
        let e = endpoint(previous: WebhookSecret.make())
        let sealed = try write { tx in try keeper.sealed(e, tx, now: 5) }
        XCTAssertEqual(WebhookSecretSeal.keyId(sealed.secret), first.id)
        XCTAssertEqual(sealed.previousSecret.flatMap(WebhookSecretSeal.keyId), first.id)
        XCTAssertEqual(try reader.webhookSecretKeyIds(), [first.id])
        XCTAssertEqual(try keeper.signingSecrets(sealed, at: 6), [e.secret, e.previousSecret!])
        // Sealed already: kept as it is.
        XCTAssertEqual(try write { tx in try keeper.sealed(sealed, tx, now: 7) }, sealed)
    }

    func testANodeWhoseKeysTheStoreDoesNotKnowRefusesToSeal() throws {
        let second = self.second
        let e = endpoint()
        try write { tx in try tx.registerWebhookSecretKey(id: second.id, now: 1) }
        let stray = WebhookSecretKeeper(keyring: .init(keys: [first]), sealing: true, path: "k")
        XCTAssertThrowsError(try write { tx in try stray.sealed(e, tx, now: 2) }) { error in
            XCTAssertEqual(
                error as? StoreError,
                WebhookSecretKeeper.Problem.notTheStoresKey(held: [first.id], registered: [second.id]).storeError)
        }
        let none = WebhookSecretKeeper(keyring: nil, sealing: true, path: "/d/secrets/webhook-keys")
        XCTAssertThrowsError(try write { tx in try none.sealed(e, tx, now: 2) }) { error in
            XCTAssertEqual(
                error as? StoreError,
                WebhookSecretKeeper.Problem.noKeyring(path: "/d/secrets/webhook-keys", registered: [second.id])
                    .storeError)
        }
        // A node with the rotated file seals with the first of its keys the store knows.
        let rotated = WebhookSecretKeeper(keyring: .init(keys: [first, second]), sealing: true, path: "k")
        let sealed = try write { tx in try rotated.sealed(e, tx, now: 3) }
        XCTAssertEqual(WebhookSecretSeal.keyId(sealed.secret), second.id)
    }

    func testAnUnknownKeyIsLeftOutThenTakenFromTheReloadedFile() throws {
        let box = Box()
        let keeper = WebhookSecretKeeper(
            keyring: .init(keys: [first]), sealing: true, path: "k", reload: { box.ring })
        var e = endpoint()
        e.secret = WebhookSecretSeal.seal(WebhookSecret.make(), endpointId: e.id, key: second)
        XCTAssertFalse(keeper.canOpen(e, at: 0))
        XCTAssertThrowsError(try keeper.signingSecrets(e, at: 0))
        box.ring = WebhookKeyring(keys: [second, first])
        keeper.reloadIfMissing()
        XCTAssertTrue(keeper.canOpen(e, at: 0))
        XCTAssertEqual(try keeper.signingSecrets(e, at: 0).count, 1)
        // A previous secret past its overlap does not count.
        e.previousSecret = WebhookSecretSeal.seal(WebhookSecret.make(), endpointId: e.id, key: .generate())
        e.previousSecretExpiresAt = 10
        XCTAssertFalse(keeper.canOpen(e, at: 9))
        XCTAssertTrue(keeper.canOpen(e, at: 10))
    }

    final class Box: @unchecked Sendable {
        var ring: WebhookKeyring?
    }
}
