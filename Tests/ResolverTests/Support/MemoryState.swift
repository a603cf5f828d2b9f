import Core
import Model
import Store

/// Every table of the store as plain values; copied (copy-on-write) for each
/// write body, which is what gives a throwing body its atomic rollback.
struct MemoryState: Sendable {
    var domains: [String: Domain] = [:]
    var apps: [String: MobileApp] = [:]
    var links: [String: Link] = [:]
    var secretKeys: [String: SecretKeyRecord] = [:]
    var publishableKeys: [String: PublishableKeyRecord] = [:] {
        didSet { publishableKeysVersion &+= 1 }
    }
    /// `Store.publishableKeysVersion`: moves with every change of `publishableKeys`.
    var publishableKeysVersion: UInt64 = 0
    var clicks: [String: Click] = [:]
    /// click id -> the open that consumed it for a probabilistic match.
    var consumedClicks: [String: String] = [:]
    /// What write bodies put in the webhooks' outbox, in order.
    var webhookEvents: [WebhookEvent] = []
    var handoffs: [[UInt8]: Handoff] = [:]
    var openEvents: [String: OpenEvent] = [:]
    /// Leads and sales by id (the conversions' events alone: no customers).
    var conversions: [String: ConversionEvent] = [:]
    /// "app\ninstance" -> instance.
    var instances: [String: AppInstance] = [:]
    var signingKeys: [String: SigningKeyRecord] = [:]
    /// "scope\nhex(keyHash)" -> record.
    var idempotency: [String: IdempotencyRecord] = [:]

    static func instanceKey(_ app: String, _ instance: String) -> String { app + "\n" + instance }
}
