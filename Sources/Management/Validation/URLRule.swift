import Templates

/// URLs the edge redirects to or shows.
///
/// - `web` (link `url`, fallbacks, `rootUrl`, `notFoundUrl`): absolute `http` or `https`.
/// - `https` (`iconUrl`, `preview.imageUrl`): shown inside pages, so `https` only.
///
/// Both use the pages' `SafeURL` rules (DNS or IP host, optional port, no credentials,
/// no spaces, quotes, backslashes or broken `%` escapes, at most 2,048 bytes) and store
/// its normalised form (lower-case scheme and host, non-ASCII percent-encoded). A URL
/// whose scheme is anything else (`javascript:`, `data:`, `file:`, `vbscript:`...) is
/// `url_blocked`, however it is spelled (case, leading spaces, tabs or newlines inside
/// the scheme, which browsers ignore).
enum URLRule {
    enum Kind {
        case web
        case https
    }

    static let webRule =
        "must be an absolute http or https URL with a DNS or IP host, no credentials, no spaces or quotes, at most 2048 bytes"
    static let httpsRule =
        "must be an absolute https URL with a DNS or IP host, no credentials, no spaces or quotes, at most 2048 bytes (it is shown in pages)"

    /// The normalised URL, or nil after adding the problem.
    static func check(_ text: String, kind: Kind, field: String, problems: inout FieldProblems) -> String? {
        switch normalized(text, kind: kind) {
        case .success(let url): return url
        case .failure(let problem):
            problems.add(FieldProblem(field, problem.rule, blocked: problem.blocked))
            return nil
        }
    }

    /// The `url_blocked` problem when `text` has a scheme other than http and https.
    static func blocked(_ text: String, field: String) -> FieldProblem? {
        guard let scheme = scheme(of: text), scheme != "http", scheme != "https" else { return nil }
        return FieldProblem(field, "uses the \(scheme): scheme; only http and https URLs are allowed", blocked: true)
    }

    struct Refusal: Error, Equatable {
        var rule: String
        var blocked: Bool
    }

    static func normalized(_ text: String, kind: Kind) -> Result<String, Refusal> {
        let rule = kind == .web ? webRule : httpsRule
        if let scheme = scheme(of: text), scheme != "http", scheme != "https" {
            return .failure(
                Refusal(
                    rule: "uses the \(scheme): scheme; only " + (kind == .web ? "http and https" : "https")
                        + " URLs are allowed", blocked: true))
        }
        let lower = text.prefix(8).lowercased()
        if lower.hasPrefix("https://"), let safe = SafeURL(text) { return .success(safe.absoluteString) }
        if lower.hasPrefix("http://") {
            guard kind == .web else { return .failure(Refusal(rule: rule, blocked: false)) }
            if let safe = SafeURL("https://" + text.dropFirst(7)) {
                return .success("http://" + safe.absoluteString.dropFirst(8))
            }
        }
        return .failure(Refusal(rule: rule, blocked: false))
    }

    /// The lower-cased scheme as a browser would read it: leading C0 controls and spaces
    /// stripped, tabs and newlines removed; nil when there is none.
    static func scheme(of text: String) -> String? {
        var out: [UInt8] = []
        var started = false
        for c in text.utf8 {
            if !started && c <= 0x20 { continue }
            started = true
            if c == 0x09 || c == 0x0A || c == 0x0D { continue }
            if c == UInt8(ascii: ":") {
                return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
            }
            let isLetter = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
            let isOther =
                (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            guard isLetter || (!out.isEmpty && isOther) else { return nil }
            out.append(isLetter ? c | 0x20 : c)
        }
        return nil
    }
}
