import HTTPMessages
import Model
import Store

/// One operation of the workspace API: method, path pattern (OpenAPI spelling, with
/// `{name}` parameters), the query parameters it takes, and what runs it.
struct ManagementRoute: Sendable {
    typealias Read = @Sendable (ManagementCall, any StoreReader, ManagementEnvironment) throws -> ManagementAnswer
    typealias Write = @Sendable (ManagementCall, any StoreTransaction, ManagementEnvironment) throws -> ManagementAnswer

    enum Handler: Sendable {
        /// Answered on the event loop from its store reader.
        case read(Read)
        /// Run on the store's writer inside one transaction; answered after the commit.
        case write(Write)
        /// Served by the edge before the workspace API sees the path (`track/click`).
        case edge
    }

    let method: HTTPMethod
    let pattern: String
    let operationId: String
    let query: Set<String>
    /// No secret key needed (the OpenAPI document).
    let isPublic: Bool
    /// The request must carry a JSON object (creates and updates; `{}` is a PATCH that
    /// changes nothing). An empty body there is 400, as the document's
    /// `requestBody.required` says.
    let requiresBody: Bool
    let handler: Handler
    /// What the key must hold (nil on public routes): `scope` or, by default, the one its
    /// operation id names (`links.*` reads `links.read`, writes `links.write`, analytics
    /// `analytics.read`...).
    let scope: KeyScope?
    /// A conversion call of the server SDK (`track/lead`, `track/sale`): its headers follow
    /// the SDK's rules (`ConversionHeaders`), and its idempotency is the event's own.
    let isConversion: Bool

    init(
        _ method: HTTPMethod, _ pattern: String, _ operationId: String, query: Set<String> = [],
        isPublic: Bool = false, requiresBody: Bool = false, scope: KeyScope? = nil, isConversion: Bool = false,
        _ handler: Handler
    ) {
        self.method = method
        self.pattern = pattern
        self.operationId = operationId
        self.query = query
        self.isPublic = isPublic
        self.requiresBody = requiresBody
        self.handler = handler
        self.isConversion = isConversion
        var isWrite = false
        if case .write = handler { isWrite = true }
        self.scope = isPublic ? nil : scope ?? Self.defaultScope(operationId, isWrite: isWrite)
    }

    static func defaultScope(_ operationId: String, isWrite: Bool) -> KeyScope? {
        if operationId.hasSuffix(".analytics") { return .analyticsRead }
        if operationId.hasPrefix("domains.") { return isWrite ? .domainsWrite : .domainsRead }
        if operationId.hasPrefix("mobileApps.") { return isWrite ? .mobileAppsWrite : .mobileAppsRead }
        if operationId.hasPrefix("links.") { return isWrite ? .linksWrite : .linksRead }
        if operationId.hasPrefix("customers.") { return isWrite ? .customersWrite : .customersRead }
        if operationId.hasPrefix("events.") { return .eventsRead }
        if operationId.hasPrefix("clientClickTracking.") || operationId.hasPrefix("browserKeys.") {
            return isWrite ? .clientClicksWrite : .clientClicksRead
        }
        if operationId.hasPrefix("webhooks.") { return isWrite ? .webhooksWrite : .webhooksRead }
        if operationId.hasPrefix("inAppEscapes.") { return isWrite ? .inAppEscapesWrite : .inAppEscapesRead }
        return nil
    }

    var isWrite: Bool {
        if case .write = handler { return true }
        return false
    }
}

/// The whole API, in one table: the edge's router adds it (`ManagementAPI.operations`)
/// and the OpenAPI test checks the document against it.
enum ManagementRoutesTable {
    static let listQuery: Set<String> = ["limit", "cursor"]

    static let all: [ManagementRoute] = general + WebhookOperations.routes

    static let general: [ManagementRoute] = [
        ManagementRoute(.get, "/api/v1/openapi.json", "openapi.get", isPublic: true, .read(OpenAPIDocument.answer)),

        ManagementRoute(.get, "/api/v1/domains", "domains.list", query: listQuery, .read(DomainOperations.list)),
        ManagementRoute(
            .post, "/api/v1/domains", "domains.create", requiresBody: true, .write(DomainOperations.create)),
        ManagementRoute(.get, "/api/v1/domains/{hostname}", "domains.get", .read(DomainOperations.get)),
        ManagementRoute(
            .patch, "/api/v1/domains/{hostname}", "domains.update", requiresBody: true, .write(DomainOperations.update)),
        ManagementRoute(.delete, "/api/v1/domains/{hostname}", "domains.delete", .write(DomainOperations.delete)),

        ManagementRoute(
            .get, "/api/v1/mobile-apps", "mobileApps.list", query: listQuery, .read(MobileAppOperations.list)),
        ManagementRoute(
            .post, "/api/v1/mobile-apps", "mobileApps.create", requiresBody: true, .write(MobileAppOperations.create)),
        ManagementRoute(.get, "/api/v1/mobile-apps/{id}", "mobileApps.get", .read(MobileAppOperations.get)),
        ManagementRoute(
            .patch, "/api/v1/mobile-apps/{id}", "mobileApps.update", requiresBody: true,
            .write(MobileAppOperations.update)),
        ManagementRoute(
            .delete, "/api/v1/mobile-apps/{id}", "mobileApps.delete", .write(MobileAppOperations.delete)),
        ManagementRoute(
            .post, "/api/v1/mobile-apps/{id}/keys/rotate", "mobileApps.rotateKey",
            .write(MobileAppOperations.rotate)),
        ManagementRoute(
            .get, "/api/v1/mobile-apps/{id}/analytics", "mobileApps.analytics", query: ["days"],
            .read(MobileAppOperations.analytics)),

        ManagementRoute(
            .get, "/api/v1/links", "links.list", query: listQuery.union(["domain", "tagId"]),
            .read(LinkOperations.list)),
        ManagementRoute(.post, "/api/v1/links", "links.create", requiresBody: true, .write(LinkOperations.create)),
        ManagementRoute(
            .post, "/api/v1/links/bulk", "links.bulkCreate", requiresBody: true, .write(LinkBulkOperations.create)),
        ManagementRoute(
            .patch, "/api/v1/links/bulk", "links.bulkUpdate", requiresBody: true, .write(LinkBulkOperations.update)),
        ManagementRoute(
            .delete, "/api/v1/links/bulk", "links.bulkDelete", requiresBody: true, .write(LinkBulkOperations.delete)),
        ManagementRoute(.get, "/api/v1/links/{id}", "links.get", .read(LinkOperations.get)),
        ManagementRoute(
            .patch, "/api/v1/links/{id}", "links.update", requiresBody: true, .write(LinkOperations.update)),
        ManagementRoute(.delete, "/api/v1/links/{id}", "links.delete", .write(LinkOperations.delete)),
        ManagementRoute(
            .get, "/api/v1/links/{id}/analytics", "links.analytics", query: ["days"],
            .read(LinkAnalyticsOperations.analytics)),
        ManagementRoute(
            .get, "/api/v1/links/{id}/qr.svg", "links.qrCodeSVG", query: LinkQRCodeOperations.query,
            .read(LinkQRCodeOperations.svg)),
        ManagementRoute(
            .get, "/api/v1/links/{id}/qr.png", "links.qrCodePNG", query: LinkQRCodeOperations.query,
            .read(LinkQRCodeOperations.png)),

        ManagementRoute(
            .get, "/api/v1/tags", "tags.list", query: listQuery, scope: .linksRead, .read(TagOperations.list)),
        ManagementRoute(
            .post, "/api/v1/tags", "tags.create", requiresBody: true, scope: .linksWrite,
            .write(TagOperations.create)),
        ManagementRoute(.get, "/api/v1/tags/{id}", "tags.get", scope: .linksRead, .read(TagOperations.get)),
        ManagementRoute(
            .patch, "/api/v1/tags/{id}", "tags.update", requiresBody: true, scope: .linksWrite,
            .write(TagOperations.update)),
        ManagementRoute(.delete, "/api/v1/tags/{id}", "tags.delete", scope: .linksWrite, .write(TagOperations.delete)),

        ManagementRoute(
            .post, "/api/v1/track/lead", "track.lead", requiresBody: true, scope: .conversionsCreate,
            isConversion: true, .write(ConversionOperations.lead)),
        ManagementRoute(
            .post, "/api/v1/track/sale", "track.sale", requiresBody: true, scope: .conversionsCreate,
            isConversion: true, .write(ConversionOperations.sale)),

        ManagementRoute(
            .get, "/api/v1/customers", "customers.list", query: listQuery, .read(CustomerOperations.list)),
        ManagementRoute(.get, "/api/v1/customers/{externalId}", "customers.get", .read(CustomerOperations.get)),
        ManagementRoute(
            .delete, "/api/v1/customers/{externalId}", "customers.erase", .write(CustomerOperations.erase)),
        ManagementRoute(
            .get, "/api/v1/client-click-tracking", "clientClickTracking.get", .read(ClientClickOperations.getSettings)),
        ManagementRoute(
            .patch, "/api/v1/client-click-tracking", "clientClickTracking.update", requiresBody: true,
            .write(ClientClickOperations.updateSettings)),
        ManagementRoute(.get, "/api/v1/in-app-escapes", "inAppEscapes.get", .read(InAppEscapeOperations.get)),
        ManagementRoute(
            .patch, "/api/v1/in-app-escapes", "inAppEscapes.update", requiresBody: true,
            .write(InAppEscapeOperations.update)),
        ManagementRoute(
            .get, "/api/v1/browser-keys", "browserKeys.list", query: listQuery, .read(ClientClickOperations.listKeys)),
        ManagementRoute(
            .post, "/api/v1/browser-keys", "browserKeys.create", requiresBody: true,
            .write(ClientClickOperations.createKey)),
        ManagementRoute(
            .delete, "/api/v1/browser-keys/{id}", "browserKeys.revoke", .write(ClientClickOperations.revokeKey)),
        // Answered by the edge's own route, ahead of this table (`ClientClickAPI`: a
        // browser key, CORS, the click written by the visit path); listed so that the
        // document and the dispatcher name the same operations.
        ManagementRoute(.post, ClientClickAPI.path, "track.click", isPublic: true, requiresBody: true, .edge),
        ManagementRoute(.options, ClientClickAPI.path, "track.clickPreflight", isPublic: true, .edge),

        ManagementRoute(
            .get, "/api/v1/events", "events.list", query: listQuery.union(["type", "linkId"]),
            .read(CustomerOperations.events)),
    ]
}
