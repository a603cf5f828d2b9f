import HTTPMessages

/// What a request under `/console/` asks for: the page of its route (`ConsoleEndpoint`),
/// with the values of the route's parameters.
enum ConsoleRoute: Equatable {
    case asset(String)
    case signInForm, signIn, signInOnce, signOut
    case overview
    case links, createLink, newLink
    case link(String), updateLink(String), editLink(String)
    case setEnabled(String, Bool)
    case confirmDelete(String), delete(String)
    case qrCode(String)
    case tags, createTag, updateTag(String), deleteTag(String)
    case apps, app(String), rotateKeys(String)
    case domains
    case customers, customer(String)
    case settings, updateSettings
    case webhooks, webhook(String), testWebhook(String)

    /// Routes that answer without a session.
    var isPublic: Bool {
        switch self {
        case .asset, .signInForm, .signIn, .signInOnce: return true
        default: return false
        }
    }
}
