import Core
import Model

/// The JSON of customers and of leads and sales in the customers' and events' routes.
enum CustomerJSON {
    static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    static func customer(_ c: Customer) -> JSONValue {
        .object(members(c))
    }

    static func members(_ c: Customer) -> [(String, JSONValue)] {
        [
            ("id", .string(c.id)), ("externalId", .string(c.externalId)), ("name", text(c.name)),
            ("email", text(c.email)), ("avatar", text(c.avatar)), ("clickId", text(c.clickId)),
            ("linkId", text(c.linkId)), ("createdAt", ResourceJSON.time(c.createdAt)),
            ("updatedAt", ResourceJSON.time(c.updatedAt)),
        ]
    }

    /// The customer with its click, its link (null once deleted), its leads and its sales.
    static func detail(_ c: Customer, link: Link?, events: [ConversionEvent]) -> JSONValue {
        var all = members(c)
        all.append(("click", c.clickId.map { .object([("id", .string($0))]) } ?? .null))
        all.append(
            ("link", link.map { .object([("id", .string($0.id)), ("shortUrl", .string($0.shortUrl))]) } ?? .null))
        all.append(("leads", .array(events.filter { $0.type == .lead }.map(event))))
        all.append(("sales", .array(events.filter { $0.type == .sale }.map(event))))
        return .object(all)
    }

    static func event(_ e: ConversionEvent) -> JSONValue {
        .object([
            ("id", .string(e.id)), ("type", .string(e.type.rawValue)), ("eventId", .string(e.eventId)),
            ("eventName", .string(e.eventName)), ("occurredAt", ResourceJSON.time(e.occurredAt)),
            ("createdAt", ResourceJSON.time(e.createdAt)), ("customerId", .string(e.customerId)),
            ("clickId", text(e.clickId)), ("linkId", text(e.linkId)), ("amount", e.amount.map { .int($0) } ?? .null),
            ("currency", text(e.currency)), ("paymentProcessor", text(e.paymentProcessor)),
            ("invoiceId", text(e.invoiceId)), ("metadata", ConversionJSON.metadata(e.metadata)),
        ])
    }
}
