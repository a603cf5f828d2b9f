import Core
import Model
import Store

/// A domain as a request states it (create: the whole domain; PATCH: the stored
/// domain merged with the patch, then read the same way).
enum DomainInput {
    static let fields: Set<String> = [
        "hostname", "verified", "deepViewEnabled", "rootUrl", "notFoundUrl", "trackConversions", "passQuery",
        "alternateHostname",
    ]
    static let readOnly: Set<String> = ["httpsActive", "createdAt", "updatedAt"]

    /// The domain to store, or `.invalid` naming every broken rule. `existing` keeps
    /// its hostname and creation time.
    static func decode(_ json: JSONValue, existing: Domain?, now: Int64) throws(ManagementError) -> Domain {
        var problems = FieldProblems()
        guard var input = InputObject(json, path: "", problems: &problems) else { throw .invalid(problems.list) }
        let hostname = input.string("hostname", required: true, maxLength: 253, problems: &problems)
        if let hostname {
            if let existing, hostname != existing.hostname {
                problems.add("hostname", "cannot be changed; create a new domain and delete this one")
            } else {
                HostnameRule.check(hostname, field: "hostname", problems: &problems)
            }
        }
        let verified = input.bool("verified", default: false, problems: &problems)
        let deepView = input.bool("deepViewEnabled", default: true, problems: &problems)
        let rootUrl = webURL(&input, "rootUrl", &problems)
        let notFoundUrl = webURL(&input, "notFoundUrl", &problems)
        let trackConversions = input.bool("trackConversions", default: false, problems: &problems)
        let passQuery = input.bool("passQuery", default: false, problems: &problems)
        // A second DNS name served as this domain (decision 0033 §4); whether another domain
        // holds it is `CatalogWriter.checkAlternate`'s question.
        let alternate = input.nullableString("alternateHostname", maxLength: 253, problems: &problems)
        if let alternate {
            if alternate == hostname {
                problems.add("alternateHostname", "must differ from the hostname")
            } else {
                HostnameRule.check(alternate, field: "alternateHostname", problems: &problems)
            }
        }
        input.reportUnread(readOnly: readOnly, problems: &problems)
        try problems.check()
        return Domain(
            hostname: hostname ?? "", verified: verified, deepViewEnabled: deepView, rootUrl: rootUrl,
            notFoundUrl: notFoundUrl, trackConversions: trackConversions, passQuery: passQuery,
            alternateHostname: alternate, createdAt: existing?.createdAt ?? now,
            updatedAt: now)
    }

    static func webURL(_ input: inout InputObject, _ name: String, _ problems: inout FieldProblems) -> String? {
        input.url(name, kind: .web, problems: &problems)
    }

    /// The writable fields as stored: the base a PATCH is merged into.
    static func writable(_ d: Domain) -> JSONValue {
        .object([
            ("hostname", .string(d.hostname)), ("verified", .bool(d.verified)),
            ("deepViewEnabled", .bool(d.deepViewEnabled)), ("rootUrl", .string(orNull: d.rootUrl)),
            ("notFoundUrl", .string(orNull: d.notFoundUrl)), ("trackConversions", .bool(d.trackConversions)),
            ("passQuery", .bool(d.passQuery)), ("alternateHostname", .string(orNull: d.alternateHostname)),
        ])
    }
}
