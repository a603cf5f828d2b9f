import Core
import Model

/// `links.options`: the JSON text of a link's rules, variants, UTM, `passQuery`, expiry and
/// in-app escapes (`inAppEscapes`, issue 36), in the API's own shapes (decision 0032), NULL
/// for a link without any of them. The external id and the tags have their own columns and
/// table. Parsed only when a link is
/// read from the database; the link cache holds the parsed `LinkOptions`.
enum LinkOptionsCodec {
    /// The stored text, nil when the link stores nothing in `options`.
    static func encode(_ options: LinkOptions?) -> [UInt8]? {
        guard let o = options else { return nil }
        var members: [(String, JSONValue)] = []
        if !o.rules.isEmpty { members.append(("rules", .array(o.rules.map(encode(rule:))))) }
        if !o.variants.isEmpty {
            members.append(
                (
                    "variants",
                    .array(o.variants.map { .object([("url", .string($0.url)), ("weight", .int(Int64($0.weight)))]) })
                ))
        }
        if let utm = o.utm?.normalized {
            members.append(("utm", .object(utm.parameters.map { (String($0.0.dropFirst(4)), .string($0.1)) })))
        }
        if let passQuery = o.passQuery { members.append(("passQuery", .bool(passQuery))) }
        if let expiresAt = o.expiresAt { members.append(("expiresAt", .int(expiresAt))) }
        if let expiredUrl = o.expiredUrl { members.append(("expiredUrl", .string(expiredUrl))) }
        if let switches = o.inAppEscapes { members.append(("inAppEscapes", switches.json)) }
        return members.isEmpty ? nil : ModelCodec.encode(json: .object(members))
    }

    private static func encode(rule: LinkRule) -> JSONValue {
        var conditions: [(String, JSONValue)] = []
        let c = rule.conditions
        if let v = c.countries { conditions.append(("countries", .array(v.map(JSONValue.string)))) }
        if let v = c.platforms { conditions.append(("platforms", .array(v.map { .string($0.rawValue) }))) }
        if let v = c.languages { conditions.append(("languages", .array(v.map(JSONValue.string)))) }
        if let v = c.devices { conditions.append(("devices", .array(v.map { .string($0.rawValue) }))) }
        var members: [(String, JSONValue)] = [("if", .object(conditions)), ("url", .string(rule.url))]
        if rule.skipApp { members.append(("skipApp", .bool(true))) }
        return .object(members)
    }

    /// The link's options from the three places they live; nil when there are none.
    /// `tagIds` is the tags' ids joined by spaces (as the read's subquery returns them).
    static func decode(
        _ bytes: UnsafeRawBufferPointer?, externalId: String?, tagIds: String?
    ) throws(StoreError) -> LinkOptions? {
        let tags = tagIds.map { $0.split(separator: " ").map(String.init).sorted() } ?? []
        guard let bytes else {
            if externalId == nil && tags.isEmpty { return nil }
            return LinkOptions(externalId: externalId, tagIds: tags)
        }
        let json = try ModelCodec.decodeJSON(bytes, column: "options")
        guard json.objectValue != nil else { throw ModelCodec.corrupt("options") }
        let rules = try (json["rules"]?.arrayValue ?? []).map { r throws(StoreError) in try decode(rule: r) }
        let variants = try (json["variants"]?.arrayValue ?? []).map { v throws(StoreError) in
            guard let url = v["url"]?.stringValue, let weight = v["weight"]?.intValue else {
                throw ModelCodec.corrupt("options")
            }
            return LinkVariant(url: url, weight: Int(weight))
        }
        let utm = json["utm"].map { u in
            UTMParameters(
                source: u["source"]?.stringValue, medium: u["medium"]?.stringValue,
                campaign: u["campaign"]?.stringValue, term: u["term"]?.stringValue, content: u["content"]?.stringValue
            ).normalized
        }
        var inAppEscapes: InAppEscapeSwitches?
        if let stored = json["inAppEscapes"] {
            guard let switches = InAppEscapeSwitches(json: stored) else { throw ModelCodec.corrupt("options") }
            inAppEscapes = switches
        }
        return LinkOptions(
            rules: rules, variants: variants, utm: utm ?? nil, passQuery: json["passQuery"]?.boolValue,
            expiresAt: json["expiresAt"]?.intValue, expiredUrl: json["expiredUrl"]?.stringValue,
            externalId: externalId, tagIds: tags, inAppEscapes: inAppEscapes)
    }

    private static func decode(rule: JSONValue) throws(StoreError) -> LinkRule {
        guard let url = rule["url"]?.stringValue, let c = rule["if"], c.objectValue != nil else {
            throw ModelCodec.corrupt("options")
        }
        func strings(_ name: String) -> [String]? { c[name]?.arrayValue?.compactMap(\.stringValue) }
        let conditions = RuleConditions(
            countries: strings("countries"), platforms: strings("platforms")?.compactMap(RulePlatform.init(rawValue:)),
            languages: strings("languages"), devices: strings("devices")?.compactMap(DeviceClass.init(rawValue:)))
        return LinkRule(conditions: conditions, url: url, skipApp: rule["skipApp"]?.boolValue ?? false)
    }
}
