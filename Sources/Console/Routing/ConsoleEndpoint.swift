import HTTPMessages

/// One route of the console, as the edge's router adds it below `/console` (`:name`
/// parameters, percent-decoded by the console listener's router): the method, the
/// pattern, and the page it asks for. The router picks the route; `Console.answer`
/// answers it.
public struct ConsoleEndpoint: Sendable {
    public let method: HTTPMethod
    /// Below `/console` (`/links/:id/edit`; `/` is the overview at `/console/`).
    public let pattern: String
    let route: @Sendable (_ parameter: (String) -> String) -> ConsoleRoute

    init(_ method: HTTPMethod, _ pattern: String, _ route: @escaping @Sendable ((String) -> String) -> ConsoleRoute) {
        self.method = method
        self.pattern = pattern
        self.route = route
    }

    init(_ method: HTTPMethod, _ pattern: String, _ route: ConsoleRoute) {
        self.init(method, pattern) { _ in route }
    }

    /// Every page, in the order `Allow` lists a path's methods in (GET before POST).
    public static let all: [ConsoleEndpoint] = [
        .init(.get, "/", .overview),
        .init(.get, "/sign-in", .signInForm),
        .init(.post, "/sign-in", .signIn),
        .init(.get, "/sign-in/once", .signInOnce),
        .init(.post, "/sign-out", .signOut),
        .init(.get, "/assets/:name") { .asset($0("name")) },
        .init(.get, "/links", .links),
        .init(.post, "/links", .createLink),
        .init(.get, "/links/new", .newLink),
        .init(.get, "/links/:id") { .link($0("id")) },
        .init(.post, "/links/:id") { .updateLink($0("id")) },
        .init(.get, "/links/:id/edit") { .editLink($0("id")) },
        .init(.post, "/links/:id/disable") { .setEnabled($0("id"), false) },
        .init(.post, "/links/:id/enable") { .setEnabled($0("id"), true) },
        .init(.get, "/links/:id/delete") { .confirmDelete($0("id")) },
        .init(.post, "/links/:id/delete") { .delete($0("id")) },
        .init(.get, "/links/:id/qr.svg") { .qrCode($0("id")) },
        .init(.get, "/tags", .tags),
        .init(.post, "/tags", .createTag),
        .init(.post, "/tags/:id") { .updateTag($0("id")) },
        .init(.post, "/tags/:id/delete") { .deleteTag($0("id")) },
        .init(.get, "/apps", .apps),
        .init(.get, "/apps/:id") { .app($0("id")) },
        .init(.post, "/apps/:id/keys/rotate") { .rotateKeys($0("id")) },
        .init(.get, "/domains", .domains),
        .init(.get, "/customers", .customers),
        .init(.get, "/customers/:externalId") { .customer($0("externalId")) },
        .init(.get, "/settings", .settings),
        .init(.post, "/settings", .updateSettings),
        .init(.get, "/webhooks", .webhooks),
        .init(.get, "/webhooks/:id") { .webhook($0("id")) },
        .init(.post, "/webhooks/:id/test") { .testWebhook($0("id")) },
    ]
}
