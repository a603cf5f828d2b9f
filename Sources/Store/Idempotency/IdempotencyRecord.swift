/// A management-API write answered once and replayed for the same key.
public struct IdempotencyRecord: Sendable, Equatable {
    public var scope: String
    public var keyHash: [UInt8]
    public var requestHash: [UInt8]
    public var status: Int
    public var body: [UInt8]
    public var createdAt: Int64

    public init(scope: String, keyHash: [UInt8], requestHash: [UInt8], status: Int, body: [UInt8], createdAt: Int64) {
        self.scope = scope
        self.keyHash = keyHash
        self.requestHash = requestHash
        self.status = status
        self.body = body
        self.createdAt = createdAt
    }
}
