import Core
import Model

/// The body of a lead or a sale, read as the official PHP SDK sends it (the contract's
/// list): `null` for every absent optional member, `[]` for an empty `metadata` (the same
/// as `{}` and as none), `\u`
/// escapes (the JSON parser's), no `paymentProcessor` (`custom`), a processor and invoice
/// with spaces around them (trimmed). Members the edge does not know are ignored, so that
/// a newer SDK's additions do not break it (decision 0024); they still count in the
/// request's identity.
struct ConversionInput: Sendable, Equatable {
    var type: ConversionType
    var eventId: String
    var eventName: String
    var clickId: String?
    var customerExternalId: String
    var customerName: String?
    var customerEmail: String?
    var customerAvatar: String?
    /// Milliseconds since the epoch; nil: when it is received.
    var occurredAt: Int64?
    /// Compact JSON of a non-empty object, else nil.
    var metadata: String?
    var amount: Int64?
    var currency: String?
    var paymentProcessor: String?
    var invoiceId: String?
    /// SHA-256 of the type and the body's canonical form (nulls and an empty metadata
    /// dropped, keys sorted): equal for the same request however it was spelled.
    var requestHash: [UInt8]

    static let maxIdLength = 255
    static let maxNameLength = 255
    static let maxEmailLength = 320
    static let maxProcessorLength = 64
    /// The name of a sale sent without `eventName`.
    static let defaultSaleName = "Purchase"
    static let defaultProcessor = "custom"
    /// An event ID or external ID that starts as an erased one's.
    static let reservedRule = "must not start with \(CustomerErasure.prefix) (the erased customers' and events' IDs)"
    /// The largest amount: 2^53 - 1, exact in every JSON reader, and what the currency with
    /// the most minor units to the dollar needs (IRR, about 10^8: about 90 million USD).
    /// Sums of it are 128-bit wide (decision 0029).
    static let maxAmount: Int64 = 9_007_199_254_740_991
    /// `occurredAt` may be this far before the call...
    static let maxAge: Int64 = 366 * 86_400_000
    /// ...and this far after it (clocks disagree).
    static let maxAhead: Int64 = 10 * 60_000

    /// The input, or 422 `validation_error` listing every broken rule, or
    /// `currency_unavailable` when the rest is right but the currency is not.
    static func parse(_ type: ConversionType, _ members: [(String, JSONValue)], now: Int64) throws(ManagementError)
        -> ConversionInput
    {
        let normalized = normalize(members)
        var problems = FieldProblems()
        var body = InputObject(.object(normalized), path: "", problems: &problems)!
        let eventId = body.string("eventId", required: true, maxLength: maxIdLength, problems: &problems)
        if let eventId, !ConversionHeaders.isValidIdempotencyKey(eventId) {
            problems.add("eventId", ConversionHeaders.idempotencyKeyRule)
        } else if let eventId, CustomerErasure.isReserved(eventId) {
            problems.add("eventId", reservedRule)
        }
        var eventName = body.string(
            "eventName", required: type == .lead, maxLength: maxNameLength, problems: &problems)
        if type == .sale && eventName == nil && !body.has("eventName") { eventName = defaultSaleName }
        var clickId: String?
        switch body.value("clickId") {
        case nil, .string("")?: clickId = nil
        case .string(let s)?: clickId = s
        default: problems.add("clickId", "must be a string (a click ID) or null")
        }
        let externalId = body.string(
            "customerExternalId", required: true, maxLength: maxIdLength, problems: &problems)
        if let externalId, CustomerErasure.isReserved(externalId) {
            problems.add("customerExternalId", reservedRule)
        }
        let name = body.string("customerName", maxLength: maxNameLength, problems: &problems)
        let email = body.string("customerEmail", maxLength: maxEmailLength, problems: &problems)
        if let email, !email.contains("@") { problems.add("customerEmail", "must be an email address") }
        let avatar = body.url("customerAvatar", kind: .web, problems: &problems)
        var occurredAt: Int64?
        switch body.value("occurredAt") {
        case nil: break
        case .string(let s)?:
            if let t = Timestamp.parse(s) {
                if t < now - maxAge || t > now + maxAhead {
                    problems.add("occurredAt", "must be within the last 366 days and at most 10 minutes ahead")
                } else {
                    occurredAt = t
                }
            } else {
                problems.add("occurredAt", "must be an RFC 3339 date-time (2026-12-04T12:30:00Z or with an offset)")
            }
        default: problems.add("occurredAt", "must be an RFC 3339 date-time string or null")
        }
        var metadata: String?
        if let value = body.value("metadata") {
            MetadataRule.check(value, field: "metadata", problems: &problems)
            if case .object(let m) = value, !m.isEmpty { metadata = String(decoding: value.jsonBytes, as: UTF8.self) }
        }
        var amount: Int64?
        var currency: String?
        var processor: String?
        var invoice: String?
        if type == .sale {
            var whole: Int64?
            switch body.value("amount") {
            case .int(let a)?: whole = a
            // JSON has one number type: 1299.0 is the integer 1299 (as JSON Schema reads it).
            case .double(let d)? where d.rounded() == d && abs(d) <= Double(maxAmount): whole = Int64(d)
            default: break
            }
            switch (body.value("amount"), whole) {
            case (nil, _):
                problems.add("amount", "is required: an integer in the currency's minor unit (4999 = 49.99 USD)")
            case (_, let a?):
                if a < 0 {
                    problems.add("amount", "must not be negative")
                } else if a > maxAmount {
                    problems.add("amount", "must be at most \(maxAmount)")
                } else {
                    amount = a
                }
            default: problems.add("amount", "must be an integer in the currency's minor unit (4999 = 49.99 USD)")
            }
            switch body.value("currency") {
            case nil: currency = Currency.defaultCode
            case .string(let s)?: currency = s.lowercased()
            default: problems.add("currency", "must be an ISO 4217 code (usd, eur, jpy...)")
            }
            processor = trimmed(body, "paymentProcessor", maxProcessorLength, &problems) ?? defaultProcessor
            invoice = trimmed(body, "invoiceId", maxIdLength, &problems)
        }
        try problems.check()
        if let code = currency, Currency.minorUnit(code) == nil { throw .currencyUnavailable(code) }
        var identity = Array(type.rawValue.utf8)
        identity.append(0x0A)
        identity += JSONValue.object(normalized).canonicalBytes
        return ConversionInput(
            type: type, eventId: eventId!, eventName: eventName!, clickId: clickId, customerExternalId: externalId!,
            customerName: name, customerEmail: email, customerAvatar: avatar, occurredAt: occurredAt,
            metadata: metadata, amount: amount, currency: currency, paymentProcessor: processor, invoiceId: invoice,
            requestHash: SHA256.hash(identity))
    }

    /// Null members dropped (null means absent), and an empty `metadata` (`{}`, or `[]` as
    /// PHP encodes an empty array): it means none.
    static func normalize(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        members.compactMap { name, value in
            if case .null = value { return nil }
            if name == "metadata", case .array(let items) = value, items.isEmpty { return nil }
            if name == "metadata", case .object(let items) = value, items.isEmpty { return nil }
            return (name, value)
        }
    }

    /// A string trimmed of spaces around it; nil when absent or only spaces.
    private static func trimmed(
        _ body: InputObject, _ name: String, _ maxLength: Int, _ problems: inout FieldProblems
    ) -> String? {
        var copy = body
        guard let value = copy.value(name) else { return nil }
        guard case .string(let s) = value else {
            problems.add(name, "must be a string or null")
            return nil
        }
        let t = s.trimmingSpaces
        if t.isEmpty { return nil }
        if let rule = TextRule.check(t, maxLength: maxLength) {
            problems.add(name, rule)
            return nil
        }
        return t
    }
}

extension String {
    /// Without the spaces, tabs and line breaks at both ends.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
