import Core
import Model
import Store

/// A link as a request states it. A create without `key` gets a generated one when
/// saved (`Link.key` is then empty here).
enum LinkInput {
    static let nested: Set<String> = ["mobile", "preview", "utm"]
    static let readOnly: Set<String> = ["id", "shortUrl", "createdAt", "updatedAt"]

    static let maxRouteLength = 500
    static let maxReferralCodeLength = 128
    static let maxDynamicKeys = 20
    static let maxTitleLength = 300
    static let maxDescriptionLength = 1_000
    static let dynamicKeyRule = "must match ^[a-z][a-z0-9_]{0,39}$"

    /// The link `json` states. `existing`: the stored link it replaces (an update, or
    /// `apply` meeting a link it knows). With `keepUnchanged` (an update's merge patch),
    /// the fields the request leaves as stored are kept without being validated again:
    /// only what a request changes must pass today's rules, so that a link stored under
    /// looser ones can still be disabled, enabled or edited elsewhere.
    static func decode(_ json: JSONValue, id: String, existing: Link?, now: Int64, keepUnchanged: Bool = false)
        throws(ManagementError) -> Link
    {
        var problems = FieldProblems()
        let stored = keepUnchanged ? existing : nil
        guard var input = InputObject(json, path: "", stored: stored.map(writable), problems: &problems) else {
            throw .invalid(problems.list)
        }
        var domain: String?
        if let stored, input.isUnchanged("domain") {
            domain = stored.domain
        } else {
            domain = input.string("domain", required: true, maxLength: 253, problems: &problems)
            if let domain { HostnameRule.check(domain, field: "domain", problems: &problems) }
        }
        var key: String?
        if let stored, input.isUnchanged("key") {
            key = stored.key
        } else {
            key = input.string("key", maxLength: 64, problems: &problems)
            if let key { LinkKeyRule.check(key, field: "key", problems: &problems) }
        }
        var url: String?
        if let stored, input.isUnchanged("url") {
            url = stored.url
        } else {
            url = input.url("url", kind: .web, required: true, problems: &problems)
        }
        let enabled = input.bool("enabled", default: true, problems: &problems)
        var mobile: MobilePayload?
        if let stored, input.isUnchanged("mobile") {
            mobile = stored.mobile
        } else if case .some(.some(var object)) = input.object("mobile", problems: &problems) {
            mobile = decodeMobile(&object, &problems, stored: stored?.mobile)
        }
        var preview: LinkPreview?
        if let stored, input.isUnchanged("preview") {
            preview = stored.preview
        } else if case .some(.some(var object)) = input.object("preview", problems: &problems) {
            preview = decodePreview(&object, &problems, stored: stored?.preview)
        }
        let trackConversions = input.optionalBool("trackConversions", problems: &problems)
        let options = LinkOptionsInput.decode(
            &input, stored: stored?.options, isUpdate: stored != nil, problems: &problems)
        input.reportUnread(readOnly: readOnly, problems: &problems)
        try problems.check()
        return Link(
            id: id, domain: domain ?? "", key: key ?? "", url: url ?? "", enabled: enabled, mobile: mobile,
            preview: preview, trackConversions: trackConversions, options: options,
            createdAt: existing?.createdAt ?? now,
            updatedAt: now)
    }

    /// Seed 001's rules for what a mobile link hands to the app; `stored`'s values for
    /// the members an update leaves unchanged.
    static func decodeMobile(_ o: inout InputObject, _ p: inout FieldProblems, stored: MobilePayload? = nil)
        -> MobilePayload?
    {
        var appId: String?
        if let stored, o.isUnchanged("appId") {
            appId = stored.appId
        } else {
            appId = o.string("appId", required: true, maxLength: 64, problems: &p)
        }
        var route: String?
        if let stored, o.isUnchanged("route") {
            route = stored.route
        } else {
            route = o.string("route", required: true, maxLength: maxRouteLength, problems: &p)
            if let route, !route.hasPrefix("/") {
                p.add(o.field("route"), "must start with / (an in-app path such as /invite/accepted)")
            }
        }
        var referralCode: String?
        if let stored, o.isUnchanged("referralCode") {
            referralCode = stored.referralCode
        } else {
            referralCode = o.nullableString("referralCode", maxLength: maxReferralCodeLength, problems: &p)
        }
        var metadata: JSONValue = .object([])
        if let stored, o.isUnchanged("metadata") {
            metadata = stored.metadata
        } else if let value = o.value("metadata"), value != .null {
            MetadataRule.check(value, field: o.field("metadata"), problems: &p)
            metadata = value
        }
        var dynamicKeys: [String] = []
        if let stored, o.isUnchanged("dynamicKeys") {
            dynamicKeys = stored.dynamicKeys
        } else if let items = o.array("dynamicKeys", maxItems: maxDynamicKeys, problems: &p) {
            for (i, item) in items.enumerated() {
                let field = o.field("dynamicKeys") + "[\(i)]"
                guard case .string(let key) = item, isDynamicKey(key) else {
                    p.add(field, dynamicKeyRule)
                    continue
                }
                if dynamicKeys.contains(key) {
                    p.add(field, "repeats \(key); list each key once")
                } else {
                    dynamicKeys.append(key)
                }
            }
        }
        let deepView = o.bool("deepView", default: true, problems: &p)
        o.reportUnread(problems: &p)
        guard let appId, let route else { return nil }
        return MobilePayload(
            appId: appId, route: route, referralCode: referralCode, metadata: metadata, dynamicKeys: dynamicKeys,
            deepView: deepView)
    }

    static func decodePreview(_ o: inout InputObject, _ p: inout FieldProblems, stored: LinkPreview? = nil)
        -> LinkPreview
    {
        var title: String?
        if let stored, o.isUnchanged("title") {
            title = stored.title
        } else {
            title = o.nullableString("title", maxLength: maxTitleLength, problems: &p)
        }
        var description: String?
        if let stored, o.isUnchanged("description") {
            description = stored.description
        } else {
            description = o.nullableString(
                "description", maxLength: maxDescriptionLength, singleLine: false, problems: &p)
        }
        var imageUrl: String?
        if let stored, o.isUnchanged("imageUrl") {
            imageUrl = stored.imageUrl
        } else {
            imageUrl = o.url("imageUrl", kind: .https, problems: &p)
        }
        o.reportUnread(problems: &p)
        return LinkPreview(title: title, description: description, imageUrl: imageUrl)
    }

    /// `^[a-z][a-z0-9_]{0,39}$`
    static func isDynamicKey(_ key: String) -> Bool {
        let u = Array(key.utf8)
        guard (1...40).contains(u.count), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(u[0]) else { return false }
        return u.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "_")
        }
    }

    /// The writable fields as stored.
    static func writable(_ link: Link) -> JSONValue {
        .object(
            [
                ("domain", .string(link.domain)), ("key", .string(link.key)), ("url", .string(link.url)),
                ("enabled", .bool(link.enabled)), ("mobile", mobileJSON(link.mobile)),
                ("preview", previewJSON(link.preview)),
                ("trackConversions", link.trackConversions.map(JSONValue.bool) ?? .null),
            ] + LinkOptionsInput.writable(link.options))
    }

    static func mobileJSON(_ m: MobilePayload?) -> JSONValue {
        guard let m else { return .null }
        return .object([
            ("appId", .string(m.appId)), ("route", .string(m.route)), ("referralCode", .string(orNull: m.referralCode)),
            ("metadata", m.metadata), ("dynamicKeys", .array(m.dynamicKeys.map { .string($0) })),
            ("deepView", .bool(m.deepView)),
        ])
    }

    static func previewJSON(_ p: LinkPreview?) -> JSONValue {
        guard let p else { return .null }
        return .object([
            ("title", .string(orNull: p.title)), ("description", .string(orNull: p.description)),
            ("imageUrl", .string(orNull: p.imageUrl)),
        ])
    }
}
