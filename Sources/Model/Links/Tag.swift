/// A workspace's tag (`/api/v1/tags`, `biq_tag_` + ULID): links carry up to 20.
public struct Tag: Sendable, Equatable {
    public var id: String
    /// 1 to 50 characters, unique in the workspace ignoring case.
    public var name: String
    public var color: TagColor
    public var createdAt: Int64
    public var updatedAt: Int64

    public static let maxNameLength = 50

    public init(id: String, name: String, color: TagColor = .gray, createdAt: Int64 = 0, updatedAt: Int64 = 0) {
        self.id = id
        self.name = name
        self.color = color
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// The fixed palette of tags (the console draws each with a colour it has checked for
/// contrast).
public enum TagColor: String, Sendable, Equatable, CaseIterable {
    case gray, red, orange, yellow, green, teal, blue, purple, pink
}
