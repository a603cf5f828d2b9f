/// The headers of the server SDK's conversion calls (`track/lead`, `track/sale`), with the
/// SDK's own rules (../shared/spec/conversions-contract.md), which differ from the rest of
/// the API's: `signup:customer_123` is a key the SDK makes and sends.
enum ConversionHeaders {
    /// `Idempotency-Key`: 1 to 255 bytes, no control character (C0 or DEL).
    static let idempotencyKeyRule = "must be 1 to 255 bytes without control characters"
    /// `X-Biq-Request-Id`: 1 to 100 of `A-Z a-z 0-9 . _ : -`.
    static let requestIdRule = "must be 1 to 100 of A-Z a-z 0-9 . _ : -"

    static func isValidIdempotencyKey(_ key: String) -> Bool {
        let u = key.utf8
        guard (1...255).contains(u.count) else { return false }
        return !u.contains { $0 < 0x20 || $0 == 0x7F }
    }

    static func isValidRequestId(_ id: String) -> Bool {
        let u = id.utf8
        guard (1...100).contains(u.count) else { return false }
        return u.allSatisfy {
            ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "-")
        }
    }

    /// The call's `Idempotency-Key`: required, once, by the rule above.
    static func idempotencyKey(_ values: [String]) throws(ManagementError) -> String {
        guard let value = values.first else { throw .idempotencyKeyRequired }
        guard values.count == 1 else { throw .malformed(FieldProblem("Idempotency-Key", "must appear once")) }
        guard isValidIdempotencyKey(value) else {
            throw .malformed(FieldProblem("Idempotency-Key", idempotencyKeyRule))
        }
        return value
    }

    /// A caller's `X-Biq-Request-Id` that breaks the rule, or comes twice, is refused.
    static func checkRequestId(_ values: [String]) throws(ManagementError) {
        guard let value = values.first else { return }
        guard values.count == 1 else { throw .malformed(FieldProblem("X-Biq-Request-Id", "must appear once")) }
        guard isValidRequestId(value) else { throw .malformed(FieldProblem("X-Biq-Request-Id", requestIdRule)) }
    }
}
