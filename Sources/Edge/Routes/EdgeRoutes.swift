import HTTP

/// The edge's route table. The order below is only for reading: the router answers with
/// the most specific route and refuses, when built, two routes that could take one request
/// (`RouterBuilder.validate`, `EdgeRouteTableTests`). The first segments routed here (`api`, `m`,
/// `_biqli`, `.well-known`, `healthz`, `metrics`, `apple-app-site-association`, ...)
/// are `LinkKey.reserved` (Model): they can never be link keys.
enum EdgeRoutes {
    static func install(on router: RouterBuilder, services: EdgeServices) {
        // A CA's HTTP-01 request must never become a redirect or a visit: its literal
        // `/.well-known/acme-challenge/:token` is more specific than a link key.
        if let acme = services.acme { ACMEChallengeRoutes.install(on: router, board: acme.manager.board) }
        OperationsRoutes.install(
            on: router, server: services.server, backend: services.backend, clicks: services.clicks,
            certificates: services.certificateHealth, configuration: services.configuration,
            clients: services.clients,
            domainCertificates: { context in
                CertificateMetrics.text(
                    domains: ((try? services.reader(context).domains()) ?? []).map(\.hostname),
                    certificates: services.server.certificates, acme: services.acme,
                    now: services.nowMilliseconds)
                    + WebhookMetrics.text(services.webhooks?.statistics.snapshot)
                    + (services.configuration.consoleAddress == nil ? "" : services.consoleMetrics.text)
            }, fleetSync: { services.resolver.fleetSyncStatistics })
        AssetRoutes.install(on: router)
        AssociationRoutes.install(on: router, services: services)
        // One visit flow (its per-loop caches) for visits and client-side clicks.
        let flow = VisitFlow(services: services)
        ResolverRoutes.install(on: router, services: services)
        ClientClickRoutes.install(on: router, services: services, flow: flow)
        ManagementRoutes.install(on: router, services: services)
        VisitRoutes.install(on: router, services: services, flow: flow)
    }
}
