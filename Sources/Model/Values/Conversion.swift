/// A customer of the workspace's own product, known by the ID the workspace gives it
/// (`customerExternalId`), with the click that brought it (issue 25).
public struct Customer: Sendable, Equatable {
    /// `biq_cus_` + ULID.
    public var id: String
    public var externalId: String
    public var name: String?
    public var email: String?
    public var avatar: String?
    /// The click the customer was attributed to (its first lead's), and that click's link.
    public var clickId: String?
    public var linkId: String?
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: String, externalId: String, name: String? = nil, email: String? = nil, avatar: String? = nil,
        clickId: String? = nil, linkId: String? = nil, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.externalId = externalId
        self.name = name
        self.email = email
        self.avatar = avatar
        self.clickId = clickId
        self.linkId = linkId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// `lead` or `sale`.
public enum ConversionType: String, Sendable, Equatable, CaseIterable {
    case lead, sale

    /// The prefix of its events' ids: `biq_lev_`, `biq_sev_`.
    public var idPrefix: String { self == .lead ? "biq_lev_" : "biq_sev_" }
}

/// One lead or sale, as recorded once for its `eventId` and `Idempotency-Key`, with the
/// answer it got (replayed as is for the same request).
public struct ConversionEvent: Sendable, Equatable {
    public var id: String
    public var type: ConversionType
    /// The caller's event ID, unique in the workspace whatever the type.
    public var eventId: String
    /// SHA-256 of the `Idempotency-Key`, unique in the workspace.
    public var idempotencyKeyHash: [UInt8]
    /// SHA-256 of the request's canonical form: equal for the same request.
    public var requestHash: [UInt8]
    public var eventName: String
    public var customerId: String
    public var clickId: String?
    public var linkId: String?
    /// Sales: in the currency's minor unit.
    public var amount: Int64?
    public var currency: String?
    public var paymentProcessor: String?
    public var invoiceId: String?
    /// Compact JSON object, nil when empty.
    public var metadata: String?
    public var occurredAt: Int64
    public var createdAt: Int64
    /// The answer's body without `request_id` (compact JSON).
    public var response: [UInt8]
    /// The arm of the link's A/B test its click got (`Click.variant`), read when the event
    /// is recorded (schema 17): what the link's `byVariant` counts it under.
    public var variant: Int?

    public init(
        id: String, type: ConversionType, eventId: String, idempotencyKeyHash: [UInt8], requestHash: [UInt8],
        eventName: String, customerId: String, clickId: String?, linkId: String?, amount: Int64? = nil,
        currency: String? = nil, paymentProcessor: String? = nil, invoiceId: String? = nil, metadata: String? = nil,
        occurredAt: Int64, createdAt: Int64, response: [UInt8], variant: Int? = nil
    ) {
        self.id = id
        self.type = type
        self.eventId = eventId
        self.idempotencyKeyHash = idempotencyKeyHash
        self.requestHash = requestHash
        self.eventName = eventName
        self.customerId = customerId
        self.clickId = clickId
        self.linkId = linkId
        self.amount = amount
        self.currency = currency
        self.paymentProcessor = paymentProcessor
        self.invoiceId = invoiceId
        self.metadata = metadata
        self.occurredAt = occurredAt
        self.createdAt = createdAt
        self.response = response
        self.variant = variant
    }
}
