import HTTPMessages

/// One route of a table as it was added (Hummingbird's `Router.routes`): what tests compare
/// with the documents that describe the table (the workspace API's OpenAPI document).
public struct RouteDescription: Sendable, Equatable {
    /// Nil: every method reaches the route.
    public let methods: [HTTPMethod]?
    /// As written, the group's prefix included (`/api/v1/links/{id}`).
    public let pattern: String
    public let name: String
    /// A group's answer for the paths under it that no route takes.
    public let isFallback: Bool
}
