import Core
import Graphics
import Model
import Store

/// The workspace API's operations for a caller in the same process that is not an HTTP
/// request: the operator console. The same validation (`LinkInput`, `CatalogWriter`) and
/// writes as `/api/v1/`, not a second copy of the rules; a refusal is thrown as the
/// `OperationRefusal` the API would have answered, any other error as it came (the
/// caller logs it).
///
/// The writes run inside the caller's store transaction (`Store.write`), as the API's do.
public enum WorkspaceOperations {
    /// The record of `key` when it is a well-formed, known and unrevoked workspace secret
    /// key (the API's bearer rule) with every power; nil otherwise. A scoped key (`keys
    /// create --scope`, decision 0024) does not open the console, where a session can do
    /// everything.
    public static func authenticate(key: String, reader: any KeyReading) throws(StoreError) -> SecretKeyRecord? {
        guard ManagementAuth.isWellFormed(key), let record = try reader.secretKey(hash: KeyMaterial.hash(key)),
            record.revokedAt == nil, record.scopes == nil
        else { return nil }
        return record
    }

    /// `POST /api/v1/links` with `fields` as its body.
    public static func createLink(
        _ fields: [(String, JSONValue)], now: Int64,
        _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock
    ) throws
        -> Link
    {
        try refusing { try LinkOperations.create(.object(fields), now: now, tx) }
    }

    /// `PATCH /api/v1/links/{id}` with `patch` as its body (JSON Merge Patch).
    public static func updateLink(
        _ id: String, patch: [(String, JSONValue)], now: Int64,
        _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock
    ) throws -> Link {
        try refusing { try LinkOperations.update(id, patch: patch, now: now, tx) }
    }

    /// `DELETE /api/v1/links/{id}`.
    public static func deleteLink(_ id: String, _ tx: any LinkWriting & WebhookWriting & TransactionClock) throws {
        _ = try refusing { try LinkOperations.delete(id, tx) }
    }

    /// `PATCH /api/v1/client-click-tracking` with `enabled` and the whole list of
    /// `hostnames` (decision 0027); the stored settings.
    public static func updateClientClickSettings(
        enabled: Bool, hostnames: [String], now: Int64, _ tx: any ClientClickWriting
    ) throws -> ClientClickSettings {
        try refusing {
            var settings = try tx.clientClickSettings()
            let body: JSONValue = .object([
                ("enabled", .bool(enabled)), ("hostnames", .array(hostnames.map { .string($0) })),
            ])
            try ClientClickSettingsInput.apply(body, to: &settings)
            settings.updatedAt = now
            try tx.putClientClickSettings(settings)
            return settings
        }
    }

    /// `PATCH /api/v1/in-app-escapes` with `switches` (decision 0033 §5); the stored settings.
    public static func updateInAppEscapes(switches: JSONValue, now: Int64, _ tx: any InAppEscapeWriting) throws
        -> InAppEscapeSettings
    {
        try refusing {
            var settings = try tx.inAppEscapeSettings()
            try InAppEscapeSettingsInput.apply(.object([("switches", switches)]), to: &settings)
            settings.updatedAt = now
            try tx.putInAppEscapeSettings(settings)
            return settings
        }
    }

    /// A new publishable key, shown this once.
    public struct RotatedKey: Sendable {
        public let publishableKey: String
        public let record: PublishableKeyRecord
        /// When the keys it replaces stop working (the app's overlap); nil when there was none.
        public let previousKeysExpireAt: Int64?
    }

    /// `POST /api/v1/mobile-apps/{id}/keys/rotate`.
    public static func rotatePublishableKey(app id: String, now: Int64, _ tx: any CatalogReading & KeyWriting) throws
        -> RotatedKey
    {
        try refusing {
            let app = try MobileAppOperations.existing(id, tx)
            let (key, record, until) = try CatalogWriter.rotate(app: app, now: now, tx)
            return RotatedKey(publishableKey: key, record: record, previousKeysExpireAt: until)
        }
    }

    /// The days a link's analytics may span (`?days=` of the API).
    public static let analyticsDays = LinkAnalyticsOperations.dayRange

    /// `GET /api/v1/links/{id}/analytics?days=N`, as values.
    public static func linkAnalytics(link: String, days: Int, now: Int64, _ reader: any AnalyticsReading)
        throws(StoreError) -> LinkAnalyticsReport
    {
        try LinkAnalyticsOperations.report(link: link, days: days, now: now, reader)
    }

    /// The prefix an erased customer's external ID takes (`DELETE /api/v1/customers/...`).
    public static let erasedCustomerPrefix = CustomerOperations.erasedPrefix

    /// A customer's journey as `GET /api/v1/customers/{externalId}` reads it: the customer,
    /// the click that brought it (nil when none or no longer kept) and its link, its
    /// leads and sales oldest first (at most the API's number). Nil: no such customer.
    public static func customerJourney(externalId: String, _ reader: any ConversionReading & LinkReading)
        throws(StoreError)
        -> CustomerJourney?
    {
        guard let customer = try reader.customer(externalId: externalId) else { return nil }
        let events = try reader.conversionEvents(customerId: customer.id, limit: CustomerOperations.maxEventsShown)
        let click = try customer.clickId.flatMap { id throws(StoreError) in try reader.conversionClick(id: id) }
        let link = try customer.linkId.flatMap { id throws(StoreError) in try reader.link(id: id) }
        return CustomerJourney(customer: customer, click: click, link: link, events: events)
    }

    public struct CustomerJourney: Sendable {
        public var customer: Customer
        public var click: Click?
        public var link: Link?
        public var events: [ConversionEvent]

        /// Erased (`DELETE /api/v1/customers/...`): the personal fields are gone.
        public var erased: Bool { customer.externalId.hasPrefix(CustomerOperations.erasedPrefix) }
    }

    /// `GET /api/v1/customers?cursor=&limit=`: customers by id after `after`, and the next
    /// page's cursor (nil on the last page).
    public static func customers(after: String?, limit: Int, _ reader: any ConversionReading) throws(StoreError)
        -> (customers: [Customer], next: String?)
    {
        let rows = try reader.customers(after: after, limit: limit + 1)
        let page = Array(rows.prefix(limit))
        return (page, rows.count > limit ? page.last?.id : nil)
    }

    /// `GET /api/v1/links/{id}/qr.svg` with its default size, margin and level.
    public static func qrCodeSVG(_ link: Link) throws -> [UInt8] {
        QRCodeSVG.render(
            try LinkQRCodeOperations.code(link), margin: LinkQRCodeOperations.defaultMargin,
            size: LinkQRCodeOperations.defaultSize)
    }

    static func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let refusal = ManagementError(answering: error) { throw OperationRefusal(refusal) }
            throw error
        }
    }
}
