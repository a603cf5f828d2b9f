import HTTPMessages

/// The six headers the resolver reads, found in one pass over the request's
/// header list: a name is compared only with the one wanted name of its length,
/// instead of every lookup comparing every header (long names are not small
/// strings, and each comparison of two of them cost a call into the runtime).
struct HeaderValues {
    var authorization = HeaderLookup.missing
    var contentType = HeaderLookup.missing
    var idempotencyKey = HeaderLookup.missing
    var sdk = HeaderLookup.missing
    var sdkVersion = HeaderLookup.missing
    var requestId = HeaderLookup.missing

    /// Names are lower-case (as the request parser gives them).
    init(_ headers: HTTPHeaders) {
        for field in headers.fields {
            let name = field.name
            let value = field.value
            switch name.utf8.count {
            case 13 where name == "authorization": Self.add(value, to: &authorization)
            case 12 where name == "content-type": Self.add(value, to: &contentType)
            case 15 where name == "idempotency-key": Self.add(value, to: &idempotencyKey)
            case 9 where name == "x-biq-sdk": Self.add(value, to: &sdk)
            case 17 where name == "x-biq-sdk-version": Self.add(value, to: &sdkVersion)
            case 16 where name == "x-biq-request-id": Self.add(value, to: &requestId)
            default: break
            }
        }
    }

    /// Exactly `ResolveInput.header`: the value when it occurs once, trimmed.
    private static func add(_ value: String, to lookup: inout HeaderLookup) {
        if case .missing = lookup {
            lookup = .value(value.trimmingOptionalWhitespace())
        } else {
            lookup = .repeated
        }
    }
}
