import Core
import Model

/// The body of `POST /api/v1/track/click` (decision 0027):
/// `{"domain": "go.example.com", "key": "BOB", "query": "ref=alice"}`.
/// `domain` and `key` name the link (`https://<domain>/<key>`). The landing page's query
/// values feed the link's dynamic values, as a visit's query does: `query` holds those the
/// page forwards (analytics-v3.js: only the ones its `data-forward-params` names), or
/// `url`, the page's whole address (analytics-v2.js sends `location.href`), of which only
/// the query is read; not both. Unknown members are refused (a typo must not pass
/// silently).
struct ClientClickRequest: Equatable {
    var domain: String
    var key: String
    var url: String?
    var query: String? = nil

    static let maxURLLength = 2048

    /// The query values to read: `query`, or the query of `url` (between `?` and `#`);
    /// empty without either.
    var landingQuery: Substring {
        if let query { return Substring(query) }
        guard let url, let q = url.firstIndex(of: "?") else { return "" }
        let rest = url[url.index(after: q)...]
        return rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest
    }

    static func decode(_ body: JSONValue) throws(ManagementError) -> ClientClickRequest {
        var problems = FieldProblems()
        guard var input = InputObject(body, path: "", problems: &problems) else { throw .invalid(problems.list) }
        let domain = input.string("domain", required: true, maxLength: 253, problems: &problems)
        let key = input.string("key", required: true, maxLength: 64, problems: &problems)
        let url = input.nullableString("url", maxLength: maxURLLength, problems: &problems)
        let query = input.nullableString("query", maxLength: maxURLLength, problems: &problems)
        input.reportUnread(problems: &problems)
        if let domain, !HostnameRule.isValid(domain) { problems.add("domain", HostnameRule.rule) }
        if let key, !LinkKey.isPossible(Substring(key)) {
            problems.add("key", "must be 1 to 64 of A-Z a-z 0-9 _ - (a link's key)")
        }
        if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            problems.add("url", "must be an absolute http or https URL (the page's location.href)")
        }
        if let query {
            if url != nil { problems.add("query", "must not be sent with url (the query values of one or the other)") }
            if query.hasPrefix("?") || query.contains("#") {
                problems.add("query", "must be query values without ? or a fragment (ref=alice&utm_source=news)")
            }
        }
        try problems.check()
        return ClientClickRequest(domain: domain ?? "", key: key ?? "", url: url, query: query)
    }
}
