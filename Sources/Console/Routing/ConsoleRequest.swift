import HTTPMessages

/// A request to the console, read once: the query, the cookies that matter, and a POST's
/// form (its path's segments are the router's: `Console.segments`).
struct ConsoleRequest: Sendable {
    let method: HTTPMethod
    let query: FormBody
    let headers: HTTPHeaders
    /// The POST's form; nil for other methods.
    let form: FormBody?
    let client: ConsoleClient

    /// Nil when the request cannot be read (a path outside `/console/`, a query or a form
    /// that is not percent-encoded UTF-8, a POST body of another type): 400.
    init?(_ request: HTTPRequest, client: ConsoleClient) {
        let path = request.path
        guard path.hasPrefix("/console/") else { return nil }
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
