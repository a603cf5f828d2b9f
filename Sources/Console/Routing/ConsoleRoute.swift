import HTTPTypes

/// What a request under `/console/` asks for, by its method and path segments.
enum ConsoleRoute: Equatable {
    case asset(String)
    case signInForm, signIn, signInOnce, signOut
    case overview
    case links, createLink, newLink
    case link(String), updateLink(String), editLink(String)
    case setEnabled(String, Bool)
    case confirmDelete(String), delete(String)
    case qrCode(String)
    case apps, app(String), rotateKeys(String)
    case domains
    case settings, updateSettings
    case webhooks, webhook(String), testWebhook(String)

    enum Match: Equatable {
        case route(ConsoleRoute)
        /// The path exists for these methods only.
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    /// Routes that answer without a session.
    var isPublic: Bool {
        switch self {
        case .asset, .signInForm, .signIn, .signInOnce: return true
        default: return false
        }
    }

    static func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        func one(_ allowed: HTTPMethod, _ route: ConsoleRoute) -> Match {
            method == allowed ? .route(route) : .methodNotAllowed([allowed])
        }
        func two(get: ConsoleRoute, post: ConsoleRoute) -> Match {
            switch method {
            case .get: return .route(get)
            case .post: return .route(post)
            default: return .methodNotAllowed([.get, .post])
            }
        }
        switch segments.count {
        case 0: return one(.get, .overview)
        case 1:
            switch segments[0] {
            case "sign-in": return two(get: .signInForm, post: .signIn)
            case "sign-out": return one(.post, .signOut)
            case "links": return two(get: .links, post: .createLink)
            case "apps": return one(.get, .apps)
            case "domains": return one(.get, .domains)
            case "settings": return two(get: .settings, post: .updateSettings)
            case "webhooks": return one(.get, .webhooks)
            default: return .notFound
            }
        case 2:
            switch (segments[0], segments[1]) {
            case ("assets", let name): return one(.get, .asset(name))
            case ("sign-in", "once"): return one(.get, .signInOnce)
            case ("links", "new"): return one(.get, .newLink)
            case ("links", let id): return two(get: .link(id), post: .updateLink(id))
            case ("apps", let id): return one(.get, .app(id))
            case ("webhooks", let id): return one(.get, .webhook(id))
            default: return .notFound
            }
        case 3:
            if segments[0] == "webhooks" && segments[2] == "test" { return one(.post, .testWebhook(segments[1])) }
            guard segments[0] == "links" else { return .notFound }
            let id = segments[1]
            switch segments[2] {
            case "edit": return one(.get, .editLink(id))
            case "disable": return one(.post, .setEnabled(id, false))
            case "enable": return one(.post, .setEnabled(id, true))
            case "delete": return two(get: .confirmDelete(id), post: .delete(id))
            case "qr.svg": return one(.get, .qrCode(id))
            default: return .notFound
            }
        case 4:
            guard segments[0] == "apps", segments[2] == "keys", segments[3] == "rotate" else { return .notFound }
            return one(.post, .rotateKeys(segments[1]))
        default:
            return .notFound
        }
    }
}
