import Core

/// One event's delivery to one endpoint: a row of the outbox (decision 0028).
public struct WebhookDelivery: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        case pending, delivered, failed
    }

    public var endpointId: String
    /// The event's id, `msg_` + ULID: the `webhook-id` header.
    public var messageId: String
    public var type: WebhookEventType
    public var body: [UInt8]
    public var createdAt: Int64
    public var state: State
    /// Attempts made, manual redeliveries included (the next attempt's number is this + 1).
    public var attempts: Int
    /// Attempts made since the schedule began (the event, or a manual redelivery).
    public var scheduledAttempts: Int
    public var scheduleStartedAt: Int64
    public var nextAttemptAt: Int64?
    public var lastStatus: Int?
    public var lastError: String?
    public var deliveredAt: Int64?
    public var updatedAt: Int64

    public init(
        endpointId: String, messageId: String, type: WebhookEventType, body: [UInt8], createdAt: Int64,
        state: State, attempts: Int, scheduledAttempts: Int, scheduleStartedAt: Int64, nextAttemptAt: Int64?,
        lastStatus: Int?, lastError: String?, deliveredAt: Int64?, updatedAt: Int64
    ) {
        self.endpointId = endpointId
        self.messageId = messageId
        self.type = type
        self.body = body
        self.createdAt = createdAt
        self.state = state
        self.attempts = attempts
        self.scheduledAttempts = scheduledAttempts
        self.scheduleStartedAt = scheduleStartedAt
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredAt = deliveredAt
        self.updatedAt = updatedAt
    }
}

/// One attempt of a delivery, as the API and the console show it.
public struct WebhookAttempt: Sendable, Equatable {
    /// How many bytes of an answer are kept.
    public static let keptAnswerBytes = 1_024

    public var endpointId: String
    public var messageId: String
    /// 1 for the first attempt.
    public var number: Int
    public var at: Int64
    public var durationMilliseconds: Int64
    /// The receiver's status, nil when none came (refused, timed out, ...).
    public var status: Int?
    /// Why it failed without a status, or what was wrong with it.
    public var error: String?
    /// The answer's first bytes, as text.
    public var answer: String?
    // Both are outside text: storable (`StorableText`) whatever they were given.
    public var node: String

    public init(
        endpointId: String, messageId: String, number: Int, at: Int64, durationMilliseconds: Int64, status: Int?,
        error: String?, answer: String?, node: String
    ) {
        self.endpointId = endpointId
        self.messageId = messageId
        self.number = number
        self.at = at
        self.durationMilliseconds = durationMilliseconds
        self.status = status
        self.error = StorableText.clean(error)
        self.answer = StorableText.clean(answer)
        self.node = node
    }

    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}
