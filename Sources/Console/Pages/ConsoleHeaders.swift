import HTTPMessages

/// The headers of every answer under `/console/`.
///
/// The policy: nothing but the console's own stylesheet, script and images (the QR
/// code), forms posted only to the console itself, never framed, no `<base>`. No inline
/// script and no `style=` attribute anywhere (charts use classes), so neither needs
/// `'unsafe-inline'`.
enum ConsoleHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"

    /// What every answer carries, pages, images and redirects alike.
    static func common() -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(8)
        headers.add("Content-Security-Policy", contentSecurityPolicy)
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Referrer-Policy", "same-origin")
        return headers
    }

    /// A page: HTML, never stored.
    static func page() -> HTTPHeaders {
        var headers = common()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return headers
    }
}
