import HTTP

/// The route table, in matching order. Reserved first segments (`api`, `m`,
/// `_biqli`, `.well-known`, `healthz`, `metrics`, `apple-app-site-association`)
/// can never be link keys.
enum EdgeRoutes {
    static let reservedKeys: Set<String> = [
        "api", "m", "_biqli", ".well-known", "healthz", "metrics", "apple-app-site-association", "favicon.ico",
        "robots.txt",
    ]

    static func install(on router: RouterBuilder, services: EdgeServices) {
        OperationsRoutes.install(
            on: router, server: services.server, store: services.store, clicks: services.clicks,
            certificates: services.certificateHealth, configuration: services.configuration)
        AssetRoutes.install(on: router)
        AssociationRoutes.install(on: router, services: services)
        ResolverRoutes.install(on: router, services: services)
        ManagementRoutes.install(on: router, services: services)
        VisitRoutes.install(on: router, services: services)
    }
}
