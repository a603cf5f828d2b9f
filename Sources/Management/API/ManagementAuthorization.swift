import HTTPMessages
import Model

/// The workspace secret key a request acts as (`id` empty on a public operation; `scopes`
/// nil when it holds every one).
public struct ManagementKey: Sendable {
    public let id: String
    let scopes: [KeyScope]?
}

/// What `ManagementAPI.authorize` decides: the key the request acts as, or the refusal
/// (400, 401, 403, 429) in the API's envelope.
public enum ManagementAuthorization: Sendable {
    case key(ManagementKey)
    case refused(HTTPResponse)
}
