import Core
import Model

/// One arm of the A/B test as the link form shows it (`variant-<i>-url`,
/// `variant-<i>-weight`). A weight that is not a whole number is sent as typed, for the
/// API to name.
struct VariantRow: Sendable, Equatable {
    var url = ""
    var weight = ""

    init() {}

    init(url: String, weight: String) {
        self.url = url
        self.weight = weight
    }

    init(_ form: FormBody, index: Int) {
        url = form.text("variant-\(index)-url")
        weight = form.text("variant-\(index)-weight")
    }

    init(_ variant: LinkVariant) {
        url = variant.url
        weight = String(variant.weight)
    }

    var isBlank: Bool { url.isEmpty && weight.isEmpty }

    var json: JSONValue {
        let number: JSONValue =
            Int64(weight).map { .int($0) } ?? (weight.isEmpty ? .null : .string(weight))
        return .object([("url", .string(url)), ("weight", number)])
    }
}
