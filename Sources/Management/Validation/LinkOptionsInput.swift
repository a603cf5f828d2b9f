import Core
import Model

/// The link fields of issue 35 (decision 0032) as a request states them: `rules`,
/// `variants`, `utm`, `passQuery`, `expiresAt`, `expiredUrl`, `tagIds`, `externalId`, and
/// `inAppEscapes` (issue 36, decision 0033 §5).
/// Flat on the link; each follows `LinkInput`'s rule that an update validates only what it
/// changes (`stored`). Whether the tags exist and the external id is free is the store's
/// question (`CatalogWriter.saveLink`).
enum LinkOptionsInput {
    static let maxLanguageLength = 35
    static let maxExternalIdLength = 255
    static let externalIdRule =
        "must be 1 to 255 printable ASCII characters (space to ~), not starting or ending with a space"

    static func decode(
        _ input: inout InputObject, stored: LinkOptions?, isUpdate: Bool, problems p: inout FieldProblems
    )
        -> LinkOptions?
    {
        func unchanged(_ name: String) -> Bool { isUpdate && input.isUnchanged(name) }
        let rules = unchanged("rules") ? stored?.rules ?? [] : decodeRules(&input, &p)
        let variants = unchanged("variants") ? stored?.variants ?? [] : decodeVariants(&input, &p)
        var utm: UTMParameters?
        if unchanged("utm") {
            utm = stored?.utm
        } else if case .some(.some(var object)) = input.object("utm", problems: &p) {
            var values: [String?] = []
            for name in ["source", "medium", "campaign", "term", "content"] {
                values.append(object.nullableString(name, maxLength: UTMParameters.maxLength, problems: &p))
            }
            object.reportUnread(problems: &p)
            utm =
                UTMParameters(
                    source: values[0], medium: values[1], campaign: values[2], term: values[3], content: values[4]
                ).normalized
        }
        let passQuery = unchanged("passQuery") ? stored?.passQuery : input.optionalBool("passQuery", problems: &p)
        var expiresAt: Int64?
        if unchanged("expiresAt") {
            expiresAt = stored?.expiresAt
        } else {
            switch input.value("expiresAt") {
            case nil, .null?: break
            case .string(let text)? where Timestamp.parse(text) != nil: expiresAt = Timestamp.parse(text)
            default: p.add(input.field("expiresAt"), "must be an RFC 3339 date-time (2026-06-01T00:00:00Z) or null")
            }
        }
        let expiredUrl =
            unchanged("expiredUrl") ? stored?.expiredUrl : input.url("expiredUrl", kind: .web, problems: &p)
        if expiredUrl != nil && expiresAt == nil {
            p.add(input.field("expiredUrl"), "needs expiresAt: it is where the link sends visitors once expired")
        }
        let tagIds = unchanged("tagIds") ? stored?.tagIds ?? [] : decodeTagIds(&input, &p)
        var externalId: String?
        if unchanged("externalId") {
            externalId = stored?.externalId
        } else {
            switch input.value("externalId") {
            case nil, .null?: break
            case .string(let id)? where isExternalId(id): externalId = id
            default: p.add(input.field("externalId"), externalIdRule)
            }
        }
        var inAppEscapes: InAppEscapeSwitches?
        if unchanged("inAppEscapes") {
            inAppEscapes = stored?.inAppEscapes
        } else if let value = input.value("inAppEscapes"), value != .null {
            // `{}` is no switches: the link follows the workspace, as with null.
            inAppEscapes = InAppEscapesInput.decode(value, field: input.field("inAppEscapes"), problems: &p)
            if inAppEscapes?.isEmpty == true { inAppEscapes = nil }
        }
        return LinkOptions.normalized(
            LinkOptions(
                rules: rules, variants: variants, utm: utm, passQuery: passQuery, expiresAt: expiresAt,
                expiredUrl: expiredUrl, externalId: externalId, tagIds: tagIds, inAppEscapes: inAppEscapes))
    }

    /// 1 to 255 of space to `~`, not starting or ending with a space.
    static func isExternalId(_ id: String) -> Bool {
        let u = Array(id.utf8)
        return (1...maxExternalIdLength).contains(u.count) && u.allSatisfy { (0x20...0x7E).contains($0) }
            && u.first != 0x20 && u.last != 0x20
    }

    private static func list(_ input: inout InputObject, _ name: String, max: Int, _ p: inout FieldProblems)
        -> [JSONValue]
    {
        if case .null? = input.value(name) { return [] }
        return input.array(name, maxItems: max, problems: &p) ?? []
    }

    static func decodeRules(_ input: inout InputObject, _ p: inout FieldProblems) -> [LinkRule] {
        var rules: [LinkRule] = []
        for (i, item) in list(&input, "rules", max: LinkOptions.maxRules, &p).enumerated() {
            var one = FieldProblems()
            guard var o = InputObject(item, path: input.field("rules") + "[\(i)]", problems: &one) else {
                p.add(contentsOf: one)
                continue
            }
            var conditions = RuleConditions()
            switch o.value("if") {
            case nil: one.add(o.field("if"), "is required (an object of condition lists; {} matches every visitor)")
            case .some(let value):
                if var c = InputObject(value, path: o.field("if"), problems: &one) {
                    conditions = decodeConditions(&c, &one)
                }
            }
            let url = o.url("url", kind: .web, required: true, problems: &one)
            let skipApp = o.bool("skipApp", default: false, problems: &one)
            o.reportUnread(problems: &one)
            p.add(contentsOf: one)
            if one.isEmpty, let url { rules.append(LinkRule(conditions: conditions, url: url, skipApp: skipApp)) }
        }
        return rules
    }

    static func decodeConditions(_ c: inout InputObject, _ p: inout FieldProblems) -> RuleConditions {
        func strings(_ name: String, max: Int, rule: String, _ check: (String) -> String?) -> [String]? {
            guard c.has(name) else {
                _ = c.value(name)
                return nil
            }
            guard let items = c.array(name, maxItems: max, problems: &p) else { return nil }
            if items.isEmpty {
                p.add(c.field(name), "must not be empty (leave it out to match every visitor)")
                return nil
            }
            var out: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item, let value = check(s) else {
                    p.add(c.field(name) + "[\(i)]", rule)
                    continue
                }
                if !out.contains(value) { out.append(value) }
            }
            return out
        }
        let countries = strings(
            "countries", max: RuleConditions.maxCountries, rule: "must be an ISO 3166-1 alpha-2 code (DE, BR)"
        ) { s in
            let u = s.uppercased()
            return u.utf8.count == 2 && u.utf8.allSatisfy { (65...90).contains($0) } ? u : nil
        }
        let platforms = strings(
            "platforms", max: RulePlatform.allCases.count, rule: "must be one of ios, android, desktop"
        ) { RulePlatform(rawValue: $0)?.rawValue }
        let languages = strings(
            "languages", max: RuleConditions.maxLanguages,
            rule: "must be a BCP 47 language tag (pt, pt-BR) of at most \(maxLanguageLength) characters"
        ) { isLanguageTag($0) ? $0 : nil }
        let devices = strings("devices", max: DeviceClass.allCases.count, rule: "must be one of phone, tablet, desktop")
        {
            DeviceClass(rawValue: $0)?.rawValue
        }
        c.reportUnread(problems: &p)
        return RuleConditions(
            countries: countries, platforms: platforms?.compactMap(RulePlatform.init(rawValue:)), languages: languages,
            devices: devices?.compactMap(DeviceClass.init(rawValue:)))
    }

    /// `^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`, at most 35 characters.
    static func isLanguageTag(_ tag: String) -> Bool {
        guard tag.utf8.count <= maxLanguageLength else { return false }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count),
            first.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count)
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
        }
    }

    static func decodeVariants(_ input: inout InputObject, _ p: inout FieldProblems) -> [LinkVariant] {
        let items = list(&input, "variants", max: LinkOptions.variantCount.upperBound, &p)
        if items.isEmpty { return [] }
        var variants: [LinkVariant] = []
        var one = FieldProblems()
        for (i, item) in items.enumerated() {
            guard var o = InputObject(item, path: input.field("variants") + "[\(i)]", problems: &one) else { continue }
            let url = o.url("url", kind: .web, required: true, problems: &one)
            var weight = 0
            if o.has("weight") {
                weight = o.int("weight", default: 0, range: 1...100, problems: &one)
            } else {
                one.add(o.field("weight"), "is required (a whole number from 1 to 100)")
            }
            o.reportUnread(problems: &one)
            if let url { variants.append(LinkVariant(url: url, weight: weight)) }
        }
        if items.count < LinkOptions.variantCount.lowerBound {
            one.add(input.field("variants"), "must hold 2 to 5 variants (or none)")
        } else if one.isEmpty, variants.reduce(0, { $0 + $1.weight }) != 100 {
            one.add(input.field("variants"), "weights must sum to 100")
        }
        p.add(contentsOf: one)
        return one.isEmpty ? variants : []
    }

    static func decodeTagIds(_ input: inout InputObject, _ p: inout FieldProblems) -> [String] {
        var ids: [String] = []
        for (i, item) in list(&input, "tagIds", max: LinkOptions.maxTags, &p).enumerated() {
            guard case .string(let id) = item, id.hasPrefix(Identifier.tagPrefix), id.utf8.count <= 64 else {
                p.add(input.field("tagIds") + "[\(i)]", "must be a tag's id (\(Identifier.tagPrefix)...)")
                continue
            }
            if !ids.contains(id) { ids.append(id) }
        }
        // The store reads them back in id order: the answer says so at once.
        return ids.sorted()
    }

    /// The fields as stored, in the answer's order.
    static func writable(_ o: LinkOptions?) -> [(String, JSONValue)] {
        [
            ("rules", .array((o?.rules ?? []).map(ruleJSON))),
            (
                "variants",
                .array(
                    (o?.variants ?? []).map { .object([("url", .string($0.url)), ("weight", .int(Int64($0.weight)))]) })
            ),
            ("utm", utmJSON(o?.utm)),
            ("passQuery", o?.passQuery.map(JSONValue.bool) ?? .null),
            ("expiresAt", o?.expiresAt.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null),
            ("expiredUrl", .string(orNull: o?.expiredUrl)),
            ("tagIds", .array((o?.tagIds ?? []).map(JSONValue.string))),
            ("externalId", .string(orNull: o?.externalId)),
            ("inAppEscapes", o?.inAppEscapes?.json ?? .null),
        ]
    }

    static func ruleJSON(_ rule: LinkRule) -> JSONValue {
        var c: [(String, JSONValue)] = []
        let k = rule.conditions
        if let v = k.countries { c.append(("countries", .array(v.map(JSONValue.string)))) }
        if let v = k.platforms { c.append(("platforms", .array(v.map { .string($0.rawValue) }))) }
        if let v = k.languages { c.append(("languages", .array(v.map(JSONValue.string)))) }
        if let v = k.devices { c.append(("devices", .array(v.map { .string($0.rawValue) }))) }
        return .object([("if", .object(c)), ("url", .string(rule.url)), ("skipApp", .bool(rule.skipApp))])
    }

    static func utmJSON(_ utm: UTMParameters?) -> JSONValue {
        guard let utm else { return .null }
        return .object([
            ("source", .string(orNull: utm.source)), ("medium", .string(orNull: utm.medium)),
            ("campaign", .string(orNull: utm.campaign)), ("term", .string(orNull: utm.term)),
            ("content", .string(orNull: utm.content)),
        ])
    }
}
