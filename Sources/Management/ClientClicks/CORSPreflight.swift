/// The CORS preflight of `POST /api/v1/track/click` (Fetch standard, "CORS-preflight
/// request"): what the browser asks before it sends the script's call, and what the edge
/// answers when the page's origin is allowed (decision 0027).
public enum CORSPreflight {
    /// Request headers a page may send: the browser key and the JSON body's type.
    public static let allowedHeaders: Set<String> = ["authorization", "content-type"]
    /// `Access-Control-Max-Age`: how long a browser may reuse a preflight's answer.
    /// Short, so that a hostname taken off the list stops working within minutes
    /// (Chromium caps it at 2 hours anyway).
    public static let maxAgeSeconds = 600

    /// Why an OPTIONS request is not a preflight the route accepts, nil when it is one:
    /// `Access-Control-Request-Method` must be `POST` (once), and
    /// `Access-Control-Request-Headers`, when present (once), a comma-separated list
    /// of `Authorization` and `Content-Type` only (any case, as browsers send them
    /// lower-case and sorted).
    public static func problem(requestMethod: [String], requestHeaders: [String]) -> String? {
        guard let method = requestMethod.first else { return "Access-Control-Request-Method is missing" }
        guard requestMethod.count == 1 else { return "Access-Control-Request-Method must appear once" }
        guard method == "POST" else { return "Access-Control-Request-Method must be POST" }
        guard requestHeaders.count <= 1 else { return "Access-Control-Request-Headers must appear once" }
        for name in (requestHeaders.first ?? "").split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: [" ", "\t"]).lowercased()
            if trimmed.isEmpty { continue }
            guard allowedHeaders.contains(trimmed) else {
                return "Access-Control-Request-Headers may name only Authorization and Content-Type"
            }
        }
        return nil
    }
}
