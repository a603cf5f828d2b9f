import Core
import Model

/// What a customer's erasure makes of its row's identifier and of each of its events
/// (pure; `CustomerOperations.erase` writes it). The external ID is the workspace's own
/// name for a person, and callers put it in their events too (the README's
/// `signup:<externalId>` event IDs), so erasure takes it out of every text the edge keeps
/// of the customer's events, not only out of the customer's row.
enum CustomerErasure {
    /// The prefix of an erased customer's external ID and of its events' event IDs,
    /// reserved: a lead or sale may not name one (`isReserved`).
    static let prefix = "erased_"

    /// `erased_<customer id>`: what the customer's external ID becomes.
    static func externalId(of customer: Customer) -> String { prefix + customer.id }

    /// An external ID or event ID a lead or sale may not use: it would reach an erased
    /// customer, or take an erased event's place.
    static func isReserved(_ identifier: String) -> Bool { identifier.hasPrefix(prefix) }

    /// The erased customer as events' answers and webhook payloads show it.
    static func customerJSON(_ customer: Customer) -> JSONValue {
        .object([
            ("id", .string(customer.id)), ("externalId", .string(externalId(of: customer))), ("name", .null),
            ("email", .null), ("avatar", .null),
        ])
    }

    /// `event` of `customer` after the erasure. An event ID that holds the external ID
    /// (`signup:<externalId>`) becomes `erased_<event id>`, and a retry of that event is
    /// then a new one; any other event ID stays, and a retry of it is still a replay
    /// (decision 0024). The hash of the `Idempotency-Key` is replaced by one no key hashes
    /// to: the key may hold the external ID, and an unkeyed hash of a guessable text is
    /// a copy of it (the replay goes by event ID). The request's hash stays: it is of the
    /// whole body, names and amounts included, which no one guesses. Every other text of
    /// the caller's (name, payment processor, invoice ID, metadata's keys and strings) has
    /// the external ID replaced by the erased one, and the stored answer is made of
    /// those, with the erased customer.
    static func scrub(_ event: ConversionEvent, of customer: Customer) -> ConversionEvent {
        let erasing = Replacement(customer.externalId, by: externalId(of: customer))
        var out = event
        if erasing.finds(event.eventId) { out.eventId = prefix + event.id }
        // Behind a NUL, which no Idempotency-Key holds: no later request's key hashes to it.
        out.idempotencyKeyHash = SHA256.hash([0] + Array((prefix + event.id).utf8))
        out.eventName = erasing.apply(event.eventName)
        out.paymentProcessor = event.paymentProcessor.map(erasing.apply)
        out.invoiceId = event.invoiceId.map(erasing.apply)
        if let text = event.metadata, let value = try? JSONParser.parse(Array(text.utf8)) {
            out.metadata = String(decoding: erasing.apply(value).jsonBytes, as: UTF8.self)
        } else {
            out.metadata = event.metadata.map(erasing.apply)
        }
        if case .object(var members)? = try? JSONParser.parse(event.response) {
            for i in members.indices {
                switch members[i].0 {
                case "customer": members[i].1 = customerJSON(customer)
                case "event": members[i].1 = scrubbedEvent(members[i].1, out, erasing)
                default: members[i].1 = erasing.apply(members[i].1)
                }
            }
            out.response = JSONValue.object(members).jsonBytes
        }
        return out
    }

    private static func scrubbedEvent(_ value: JSONValue, _ event: ConversionEvent, _ erasing: Replacement)
        -> JSONValue
    {
        guard case .object(var members) = value else { return erasing.apply(value) }
        for i in members.indices {
            members[i].1 = members[i].0 == "eventId" ? .string(event.eventId) : erasing.apply(members[i].1)
        }
        return .object(members)
    }

    /// Every occurrence of one text replaced by another, through JSON values.
    struct Replacement {
        let old: String
        let new: String

        init(_ old: String, by new: String) {
            self.old = old
            self.new = new
        }

        func finds(_ text: String) -> Bool { !old.isEmpty && text.contains(old) }

        func apply(_ text: String) -> String { finds(text) ? text.replacing(old, with: new) : text }

        func apply(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let s): return .string(apply(s))
            case .array(let items): return .array(items.map(apply))
            case .object(let members): return .object(members.map { (apply($0.0), apply($0.1)) })
            default: return value
            }
        }
    }
}
