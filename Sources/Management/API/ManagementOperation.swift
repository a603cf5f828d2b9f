import HTTPMessages

/// One operation of the workspace API as the edge's router adds it: a route below
/// `/api/v1` (OpenAPI's `{name}` parameters), named by its operation id.
public struct ManagementOperation: Sendable {
    let route: ManagementRoute

    public var method: HTTPMethod { route.method }
    public var pattern: String { route.pattern }
    public var operationId: String { route.operationId }
    /// Answered by the edge's own route (`track.click`: `ClientClickAPI`), not by this API:
    /// listed so that the document and the table name the same operations.
    public var isEdge: Bool {
        if case .edge = route.handler { return true }
        return false
    }
}
