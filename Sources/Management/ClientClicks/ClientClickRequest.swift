import Core
import Model

/// The body of `POST /api/v1/track/click` (decision 0027):
/// `{"domain": "go.example.com", "key": "BOB", "url": "https://shop.example.com/?via=BOB"}`.
/// `domain` and `key` name the link (`https://<domain>/<key>`); `url`, optional, is the
/// page the visitor landed on: its query feeds the link's dynamic values, as a visit's
/// does. Unknown members are refused (a typo must not pass silently).
struct ClientClickRequest: Equatable {
    var domain: String
    var key: String
    var url: String?

    static let maxURLLength = 2048

    /// The query of `url` (between `?` and `#`), empty without one.
    var landingQuery: Substring {
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
        input.reportUnread(problems: &problems)
        if let domain, !HostnameRule.isValid(domain) { problems.add("domain", HostnameRule.rule) }
        if let key, !LinkKey.isPossible(Substring(key)) {
            problems.add("key", "must be 1 to 64 of A-Z a-z 0-9 _ - (a link's key)")
        }
        if let url, !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
            problems.add("url", "must be an absolute http or https URL (the page's location.href)")
        }
        try problems.check()
        return ClientClickRequest(domain: domain ?? "", key: key ?? "", url: url)
    }
}
