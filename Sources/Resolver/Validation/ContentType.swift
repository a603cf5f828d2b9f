/// `Content-Type` of the request body.
///
/// The SDKs send exactly `application/json`. A `charset=utf-8` parameter is
/// accepted too (JSON is UTF-8 by definition, RFC 8259 §8.1); anything else means
/// the body is not declared as JSON, which the seed calls `invalid_request`.
enum ContentType {
    static func isJSON(_ lookup: HeaderLookup) -> Bool {
        guard let value = lookup.value else { return false }
        if value == "application/json" { return true }  // what both SDKs send
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let media = parts.next(), media.trimmingOptionalWhitespace().lowercased() == "application/json"
        else { return false }
        while let raw = parts.next() {
            let p = raw.trimmingOptionalWhitespace().lowercased()
            guard p == "charset=utf-8" || p == "charset=\"utf-8\"" else { return false }
        }
        return true
    }
}
