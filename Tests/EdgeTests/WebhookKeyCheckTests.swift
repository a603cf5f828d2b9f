import Model
import XCTest

@testable import Edge

/// `check` on the keys that seal the webhooks' signing secrets (decision 0031).
final class WebhookKeyCheckTests: XCTestCase {
    let key = WebhookKeyring.Key(id: "wk_aaaa", bytes: Array(repeating: 1, count: 32))
    let path = "/data/secrets/webhook-keys"

    func endpoint(_ secret: String) -> WebhookEndpoint {
        WebhookEndpoint(
            id: "biq_whk_1", url: "https://x.example/", eventTypes: [.linkCreated], secret: secret, createdAt: 0,
            updatedAt: 0)
    }

    func codes(_ findings: [CheckFinding]) -> [String] { findings.map { "\($0.severity.rawValue) \($0.code)" } }

    func testAMissingFileFailsOnceSecretsNeedIt() {
        let sealed = endpoint(WebhookSecretSeal.seal(WebhookSecret.make(), endpointId: "biq_whk_1", key: key))
        XCTAssertEqual(
            codes(checkKeys(file: .success(nil), registered: [key.id], endpoints: [sealed])),
            ["error webhook_key_missing"])
        // A fleet without endpoints is only told.
        XCTAssertEqual(
            codes(checkKeys(file: .success(nil), registered: [key.id], endpoints: [])), ["warning webhook_key_missing"])
        // A store that never sealed anything needs no file.
        XCTAssertEqual(codes(checkKeys(file: .success(nil), registered: [], endpoints: [])), [])
    }

    func testAFileThatLacksTheStoresKeys() {
        let other = WebhookKeyring(keys: [.generate()])
        let sealed = endpoint(WebhookSecretSeal.seal(WebhookSecret.make(), endpointId: "biq_whk_1", key: key))
        XCTAssertEqual(
            codes(checkKeys(file: .success(other), registered: [key.id], endpoints: [sealed])),
            ["error webhook_key_unknown", "error webhook_key_not_the_stores"])
        XCTAssertEqual(
            codes(checkKeys(file: .success(.init(keys: [key])), registered: [key.id], endpoints: [sealed])),
            ["ok webhook_keys"])
        XCTAssertEqual(
            codes(checkKeys(file: .success(.init(keys: [key])), registered: [], endpoints: [endpoint("whsec_x")])),
            ["warning webhook_secrets_unsealed"])
        XCTAssertEqual(
            codes(checkKeys(file: .failure(.damaged(path: path, .empty)), registered: [], endpoints: [])),
            ["error webhook_key_unreadable"])
    }

    func checkKeys(
        file: Result<WebhookKeyring?, WebhookKeyFile.Failure>, registered: [String], endpoints: [WebhookEndpoint]
    ) -> [CheckFinding] {
        EdgeChecker.checkWebhookKeys(path: path, file: file, registered: registered, endpoints: endpoints)
    }
}
