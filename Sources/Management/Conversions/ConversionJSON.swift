import Core
import Model

/// The answer of a lead or a sale (201, then the same on every replay): the names the
/// server SDK's own tests read (`event.id`, `click.id`, `customer.externalId`,
/// `sale.amount`...). The stored form has no `request_id`: each answer gets its own
/// request's (decision 0024).
enum ConversionJSON {
    static func answer(
        event: ConversionEvent, click: String?, link: Link?, customer: Customer
    ) -> JSONValue {
        var members: [(String, JSONValue)] = [
            (
                "event",
                .object([
                    ("id", .string(event.id)), ("type", .string(event.type.rawValue)),
                    ("eventId", .string(event.eventId)), ("eventName", .string(event.eventName)),
                    ("occurredAt", .string(Timestamp.format(milliseconds: event.occurredAt))),
                    ("metadata", metadata(event.metadata)),
                ])
            ),
            ("click", click.map { .object([("id", .string($0))]) } ?? .null),
            ("link", link.map { .object([("id", .string($0.id)), ("shortUrl", .string($0.shortUrl))]) } ?? .null),
            (
                "customer",
                .object([
                    ("id", .string(customer.id)), ("externalId", .string(customer.externalId)),
                    ("name", optional(customer.name)), ("email", optional(customer.email)),
                    ("avatar", optional(customer.avatar)),
                ])
            ),
        ]
        switch event.type {
        case .lead:
            members.append(("lead", .object([("eventName", .string(event.eventName))])))
        case .sale:
            members.append(
                (
                    "sale",
                    .object([
                        ("amount", .int(event.amount ?? 0)),
                        ("currency", .string(event.currency ?? Currency.defaultCode)),
                        ("paymentProcessor", optional(event.paymentProcessor)),
                        ("invoiceId", optional(event.invoiceId)),
                    ])
                ))
        }
        return .object(members)
    }

    /// A stored answer with this request's id.
    static func withRequestId(_ stored: JSONValue, _ requestId: String) -> JSONValue {
        guard case .object(var members) = stored else { return stored }
        members.removeAll { $0.0 == "request_id" }
        members.append(("request_id", .string(requestId)))
        return .object(members)
    }

    static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    static func metadata(_ text: String?) -> JSONValue {
        guard let text, let value = try? JSONParser.parse(Array(text.utf8)) else { return .object([]) }
        return value
    }
}
