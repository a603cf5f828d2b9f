/// A receiver of webhooks (decision 0028): where, what, and its signing secrets.
public struct WebhookEndpoint: Sendable, Equatable {
    public static let idPrefix = "biq_whk_"

    /// `biq_whk_` + ULID.
    public var id: String
    public var url: String
    public var description: String?
    /// What it subscribes to, in `WebhookEventType.subscribable` order, never empty.
    public var eventTypes: [WebhookEventType]
    /// Only events of these apps (when given, non-empty).
    public var appIds: [String]?
    /// Only events of these links (when given, non-empty).
    public var linkIds: [String]?
    public var enabled: Bool
    public var disabledReason: String?
    public var disabledAt: Int64?
    /// `whsec_` + base64: returned by the create and rotate calls only.
    public var secret: String
    /// The secret before the last rotation, still signed with until `previousSecretExpiresAt`.
    public var previousSecret: String?
    public var previousSecretExpiresAt: Int64?
    /// The first failed attempt since the last success; nil while it succeeds.
    public var failingSince: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: String, url: String, description: String? = nil, eventTypes: [WebhookEventType], appIds: [String]? = nil,
        linkIds: [String]? = nil, enabled: Bool = true, disabledReason: String? = nil, disabledAt: Int64? = nil,
        secret: String, previousSecret: String? = nil, previousSecretExpiresAt: Int64? = nil,
        failingSince: Int64? = nil, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.appIds = appIds
        self.linkIds = linkIds
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.disabledAt = disabledAt
        self.secret = secret
        self.previousSecret = previousSecret
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.failingSince = failingSince
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The secrets to sign with at `now`: the current one, then the previous one during
    /// its overlap.
    public func signingSecrets(at now: Int64) -> [String] {
        if let previousSecret, let until = previousSecretExpiresAt, now < until { return [secret, previousSecret] }
        return [secret]
    }

    /// Whether an event of `type` about `appId` and `linkId` goes to this endpoint (the
    /// store's `INSERT ... SELECT` applies the same rule in SQL).
    public func wants(_ type: WebhookEventType, appId: String?, linkId: String?) -> Bool {
        guard enabled, eventTypes.contains(type) else { return false }
        if let appIds, !(appId.map(appIds.contains) ?? false) { return false }
        if let linkIds, !(linkId.map(linkIds.contains) ?? false) { return false }
        return true
    }

    /// A list stored as one text: each item between spaces (` a b `), so that SQL finds
    /// an item with `instr(list, ' ' || item || ' ')`.
    public static func storedList(_ items: [String]) -> String { " " + items.joined(separator: " ") + " " }

    public static func parseStoredList(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
}
