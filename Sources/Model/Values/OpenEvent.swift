/// How an open was matched (the resolver's `matchedBy`).
public enum MatchType: String, Sendable, Equatable, CaseIterable {
    case exactAppLink = "exact_app_link"
    case exactInstallReferrer = "exact_install_referrer"
    case exactHandoff = "exact_handoff"
    case probabilistic = "probabilistic"
    case none = "none"

    public var confidence: Confidence {
        switch self {
        case .exactAppLink, .exactInstallReferrer, .exactHandoff: return .exact
        case .probabilistic: return .probabilistic
        case .none: return .none
        }
    }
}

public enum Confidence: String, Sendable, Equatable, CaseIterable {
    case exact, probabilistic, none
}

/// One resolved `POST /api/v1/track/open`, kept for analytics and replays.
public struct OpenEvent: Sendable, Equatable {
    /// `biq_open_` + ULID.
    public var id: String
    public var appId: String
    public var appInstanceId: String
    public var eventId: String
    /// SHA-256 of the Idempotency-Key header, when one was sent.
    public var idempotencyKeyHash: [UInt8]?
    /// SHA-256 of the canonical request (request ID excluded): replays must match it.
    public var requestHash: [UInt8]
    public var platform: Platform
    public var matchedBy: MatchType
    public var firstOpen: Bool
    public var sdkVersion: String
    public var linkId: String?
    public var clickId: String?
    public var at: Int64
    /// The response body's JSON without `requestId` and `attributionReceipt`;
    /// replays re-add the caller's request ID and `receipt` while it is valid.
    public var storedResponse: [UInt8]
    /// The attribution receipt of a matched answer (a compact JWS), kept so that a
    /// replay of the same event returns it until `receiptExpiresAt`; nil for `none`.
    public var receipt: [UInt8]?
    /// When `receipt` (or `receiptInput`) expires (its `exp`), milliseconds since the epoch.
    public var receiptExpiresAt: Int64?
    /// The receipt's signed part (`header.payload`) when the write stored it unsigned,
    /// instead of `receipt`: the signature is made after the commit, on an event loop
    /// rather than the store's one writer thread, and again for a replay (Ed25519 is
    /// deterministic: the same JWS every time). Decision 0023.
    public var receiptInput: [UInt8]?

    public init(
        id: String, appId: String, appInstanceId: String, eventId: String, idempotencyKeyHash: [UInt8]?,
        requestHash: [UInt8], platform: Platform, matchedBy: MatchType, firstOpen: Bool, sdkVersion: String,
        linkId: String?, clickId: String?, at: Int64, storedResponse: [UInt8], receipt: [UInt8]? = nil,
        receiptExpiresAt: Int64? = nil, receiptInput: [UInt8]? = nil
    ) {
        self.id = id
        self.appId = appId
        self.appInstanceId = appInstanceId
        self.eventId = eventId
        self.idempotencyKeyHash = idempotencyKeyHash
        self.requestHash = requestHash
        self.platform = platform
        self.matchedBy = matchedBy
        self.firstOpen = firstOpen
        self.sdkVersion = sdkVersion
        self.linkId = linkId
        self.clickId = clickId
        self.at = at
        self.storedResponse = storedResponse
        self.receipt = receipt
        self.receiptExpiresAt = receiptExpiresAt
        self.receiptInput = receiptInput
    }

    /// The stored receipt while it is valid at `now` (ms), else nil.
    public func receipt(validAt now: Int64) -> [UInt8]? {
        guard let receipt, let expiresAt = receiptExpiresAt, now < expiresAt else { return nil }
        return receipt
    }

    /// The stored unsigned receipt (`receiptInput`) while it is valid at `now` (ms), else nil.
    public func receiptInput(validAt now: Int64) -> [UInt8]? {
        guard let receiptInput, let expiresAt = receiptExpiresAt, now < expiresAt else { return nil }
        return receiptInput
    }

    public var confidence: Confidence { matchedBy.confidence }
}

/// One installation of an app, as the resolver knows it.
public struct AppInstance: Sendable, Equatable {
    public var appId: String
    public var instanceId: String
    public var platform: Platform
    /// The open whose matched first-open result is immutable for this instance.
    public var firstOpenId: String?
    public var createdAt: Int64

    public init(appId: String, instanceId: String, platform: Platform, firstOpenId: String? = nil, createdAt: Int64) {
        self.appId = appId
        self.instanceId = instanceId
        self.platform = platform
        self.firstOpenId = firstOpenId
        self.createdAt = createdAt
    }
}
