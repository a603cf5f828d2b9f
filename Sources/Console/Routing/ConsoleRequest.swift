import HTTPTypes

/// A request to the console, read once: the path below `/console/` in segments
/// (percent-decoded), the query, the cookies that matter, and a POST's form.
struct ConsoleRequest: Sendable {
    let method: HTTPMethod
    /// `/console/links/biq_lnk_1/edit` -> `links`, `biq_lnk_1`, `edit`; `/console/` -> none.
    let segments: [String]
    let query: FormBody
    let headers: HTTPHeaders
    /// The POST's form; nil for other methods.
    let form: FormBody?
    let client: ConsoleClient

    /// Nil when the request cannot be read (a path outside `/console/`, a segment or a
    /// form that is not percent-encoded UTF-8, a POST body of another type): 400.
    init?(_ request: HTTPRequest, client: ConsoleClient) {
        let path = request.path
        guard path.hasPrefix("/console/") else { return nil }
        var segments: [String] = []
        for part in path.dropFirst("/console/".count).split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = Self.decodeSegment(part) else { return nil }
            segments.append(decoded)
        }
        if segments.last == "" { segments.removeLast() }
        // An empty segment inside (`/console//links`) names nothing.
        guard !segments.contains("") else { return nil }
        guard let query = FormBody((request.query ?? "").utf8) else { return nil }
        var form: FormBody?
        if request.method == .post {
            let type = request.headers["content-type"]?.lowercased() ?? ""
            let mediaType = type.split(separator: ";").first.map { $0.trimmed } ?? ""
            // An empty body (a form without fields) may come without a type.
            guard mediaType == "application/x-www-form-urlencoded" || (mediaType.isEmpty && request.body.isEmpty),
                let body = FormBody(request.body)
            else { return nil }
            form = body
        }
        self.method = request.method == .head ? .get : request.method
        self.segments = segments
        self.query = query
        self.headers = request.headers
        self.form = form
        self.client = client
    }

    /// A path segment: `%XX` decoded (a `+` stays a plus), UTF-8.
    static func decodeSegment(_ part: Substring) -> String? {
        guard part.contains("%") else { return String(part) }
        return FormBody.percentDecode(part.utf8)
    }
}
