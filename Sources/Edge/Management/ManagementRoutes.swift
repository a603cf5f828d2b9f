import HTTP

/// The workspace API under `/api/v1/` (issue 4).
enum ManagementRoutes {
    static func install(on router: Router, services: EdgeServices) {}
}
