import HTTPMessages

/// The console's two cookies and how they are read and set.
///
/// - `biqli_console`: the session token (`SessionToken`), set at sign-in for the
///   session's lifetime.
/// - `biqli_console_form`: a token set with the sign-in form, before any session: the
///   form's CSRF token is derived from it (a double-submit that an attacker cannot
///   complete without reading the cookie).
///
/// Both are `HttpOnly` (no script reads them), `SameSite=Strict` (no other site's page
/// sends them), `Path=/console/` (the public listeners never see them), and `Secure`
/// when the request came over HTTPS (or a trusted proxy said so).
enum ConsoleCookies {
    static let session = "biqli_console"
    static let form = "biqli_console_form"
    static let path = "/console/"

    /// The value of cookie `name` in the request's `Cookie` fields (the first one).
    static func value(_ name: String, in headers: HTTPHeaders) -> String? {
        for field in headers.values("cookie") {
            for pair in field.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " || $0 == "\t" }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == name { return String(trimmed[trimmed.index(after: equals)...]) }
            }
        }
        return nil
    }

    /// `Set-Cookie` for `name=value`, kept `maxAge` seconds.
    static func set(_ name: String, _ value: String, maxAge: Int64, secure: Bool) -> String {
        name + "=" + value + "; Max-Age=" + String(maxAge) + "; Path=" + path + "; HttpOnly; SameSite=Strict"
            + (secure ? "; Secure" : "")
    }

    /// `Set-Cookie` that removes `name`.
    static func clear(_ name: String, secure: Bool) -> String { set(name, "", maxAge: 0, secure: secure) }
}
