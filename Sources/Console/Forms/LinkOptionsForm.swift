import Core
import Model

/// The link form's fields of decision 0032: rules, the A/B test's variants, UTM,
/// `passQuery`, expiry, the external id and the tags. Rows left blank are not sent, so
/// row i of the page is the API's `rules[i]` (or `variants[i]`), and its errors come back
/// beside it. Without script, "Add a rule" and "Add a variant" post the form and get it
/// back with one more blank row (`add`), keeping what was typed.
struct LinkOptionsForm: Sendable, Equatable {
    static let utmNames = ["source", "medium", "campaign", "term", "content"]

    /// The rules typed, in order, blank rows dropped.
    var rules: [RuleRow] = []
    /// Blank rule rows the page shows after them.
    var blankRules = 1
    var variants: [VariantRow] = []
    var blankVariants = 2
    /// `utm_source`...`utm_content`, in `utmNames` order.
    var utm = ["", "", "", "", ""]
    /// `""` (the domain's default), `on` or `off`.
    var passQuery = ""
    /// A datetime-local value, UTC.
    var expiresAt = ""
    var expiredUrl = ""
    var externalId = ""
    /// Checked tags, sorted (the API keeps them in id order).
    var tagIds: [String] = []

    init() {}

    init(_ form: FormBody) {
        for i in 0..<LinkOptions.maxRules {
            let row = RuleRow(form, index: i)
            if !row.isBlank { rules.append(row) }
        }
        for i in 0..<LinkOptions.variantCount.upperBound {
            let row = VariantRow(form, index: i)
            if !row.isBlank { variants.append(row) }
        }
        let add = form.text("add")
        blankRules = Self.blank(
            shown: Int(form.text("ruleRows")) ?? 0, filled: rules.count, max: LinkOptions.maxRules, least: 1,
            adding: add == "rule")
        blankVariants = Self.blank(
            shown: Int(form.text("variantRows")) ?? 0, filled: variants.count,
            max: LinkOptions.variantCount.upperBound, least: max(1, 2 - variants.count), adding: add == "variant")
        utm = Self.utmNames.map { form.text("utm_" + $0) }
        passQuery = ["on", "off"].contains(form.text("passQuery")) ? form.text("passQuery") : ""
        expiresAt = form.text("expiresAt")
        expiredUrl = form.text("expiredUrl")
        externalId = form.text("externalId")
        tagIds = Array(Set(form.values("tagIds").filter { !$0.isEmpty })).sorted()
    }

    /// The form of a stored link's options.
    init(_ options: LinkOptions?) {
        guard let options else { return }
        rules = options.rules.map(RuleRow.init)
        blankRules = rules.count < LinkOptions.maxRules ? 1 : 0
        variants = options.variants.map(VariantRow.init)
        blankVariants = variants.isEmpty ? 2 : (variants.count < LinkOptions.variantCount.upperBound ? 1 : 0)
        let u = options.utm
        utm = [u?.source, u?.medium, u?.campaign, u?.term, u?.content].map { $0 ?? "" }
        passQuery = options.passQuery.map { $0 ? "on" : "off" } ?? ""
        expiresAt = options.expiresAt.map(UTCDateTime.local) ?? ""
        expiredUrl = options.expiredUrl ?? ""
        externalId = options.externalId ?? ""
        tagIds = options.tagIds.sorted()
    }

    /// The blank rows to show again: as many as were shown beyond the filled ones (at
    /// least `least`), or one more than that when `adding` (the page then has one more row
    /// than it had), within `max` rows in all.
    private static func blank(shown: Int, filled: Int, max: Int, least: Int, adding: Bool) -> Int {
        let wanted = adding ? Swift.max(shown - filled, 0) + 1 : Swift.max(shown - filled, least)
        return Swift.max(0, Swift.min(wanted, max - filled))
    }

    /// Every field as the API's body states it (null: none).
    var fields: [(String, JSONValue)] {
        let utmValues = utm.map { $0.isEmpty ? JSONValue.null : .string($0) }
        let expiry: JSONValue =
            expiresAt.isEmpty ? .null : .string(UTCDateTime.rfc3339(expiresAt) ?? expiresAt)
        return [
            ("rules", rules.isEmpty ? .null : .array(rules.map(\.json))),
            ("variants", variants.isEmpty ? .null : .array(variants.map(\.json))),
            (
                "utm",
                utmValues.allSatisfy { $0 == .null }
                    ? .null : .object(Array(zip(Self.utmNames, utmValues)))
            ),
            ("passQuery", passQuery.isEmpty ? .null : .bool(passQuery == "on")),
            ("expiresAt", expiry),
            ("expiredUrl", expiredUrl.isEmpty ? .null : .string(expiredUrl)),
            ("externalId", externalId.isEmpty ? .null : .string(externalId)),
            ("tagIds", tagIds.isEmpty ? .null : .array(tagIds.map { .string($0) })),
        ]
    }

    /// The create body's fields: those set.
    var createFields: [(String, JSONValue)] { fields.filter { $0.1 != .null } }

    /// The merge patch's fields: those that differ from what the form of `current` says,
    /// so a field the operator did not touch is neither sent nor judged again.
    func patch(of current: LinkOptions?) -> [(String, JSONValue)] {
        let before = LinkOptionsForm(current).fields
        return zip(fields, before).compactMap { now, then in now.1 == then.1 ? nil : now }
    }

    /// The form field an API field path names (`rules[3].if.countries[0]` ->
    /// `rule-3-countries`, `variants[1]` -> `variant-1`, `utm.term` -> `utm_term`); nil for
    /// one this part of the form does not show.
    static func field(of path: String) -> String? {
        switch path {
        case "rules", "variants", "utm", "passQuery", "expiresAt", "expiredUrl", "externalId", "tagIds": return path
        default: break
        }
        if path.hasPrefix("tagIds[") { return "tagIds" }
        if path.hasPrefix("utm.") {
            let name = String(path.dropFirst(4))
            return utmNames.contains(name) ? "utm_" + name : "utm"
        }
        for (list, row) in [("rules", "rule"), ("variants", "variant")] {
            guard path.hasPrefix(list + "["), let close = path.firstIndex(of: "]") else { continue }
            guard let index = Int(path[path.index(path.startIndex, offsetBy: list.count + 1)..<close]) else {
                return list
            }
            // `.if.countries[0]` -> `countries`; `.url` -> `url`; `` or `.if` -> the row.
            var rest = path[path.index(after: close)...].split(separator: ".").map(String.init)
            if rest.first == "if" { rest.removeFirst() }
            let leaf = rest.first.map { String($0.prefix(while: { $0 != "[" })) }
            let known =
                list == "rules"
                ? ["countries", "platforms", "languages", "devices", "url", "skipApp"] : ["url", "weight"]
            if let leaf, known.contains(leaf) { return "\(row)-\(index)-\(leaf)" }
            return "\(row)-\(index)"
        }
        return nil
    }
}
