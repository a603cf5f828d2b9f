/// Request methods the edge knows. Others are carried as `.other` and answered 405/501 by routes.
public enum HTTPMethod: Sendable, Equatable, Hashable {
    case get, head, post, put, patch, delete, options
    case other(String)

    public init(_ token: String) {
        switch token {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        default: self = .other(token)
        }
    }

    public var name: String {
        switch self {
        case .get: return "GET"
        case .head: return "HEAD"
        case .post: return "POST"
        case .put: return "PUT"
        case .patch: return "PATCH"
        case .delete: return "DELETE"
        case .options: return "OPTIONS"
        case .other(let s): return s
        }
    }
}
