/// The response headers of every HTML page, and of the static assets.
///
/// The page policy (one line, sent as `Content-Security-Policy`):
/// `default-src 'none'; script-src 'nonce-N'; style-src 'self'; img-src 'self' https: data:;
/// base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
/// - scripts run only with this response's nonce: the one external `deepview.<hash>.js` carries
///   it; there is no inline script, no `'unsafe-inline'`, no `'self'` for scripts (so even a
///   same-origin URL that redirects cannot become a script); pages without a script get
///   `script-src 'none'`;
/// - styles only from the same origin (the hashed CSS file); no inline styles at all;
/// - images: the app icon and preview image are `https:` URLs (`SafeURL`), the placeholder icon
///   is a same-origin asset (`'self'`, which also covers a plain-HTTP test set-up);
/// - nothing may frame the page, set a `<base>`, or submit a form.
/// HSTS is the transport's job (it knows whether the connection is TLS).
public enum PageHeaders {
    /// The policy for a page rendered with `nonce`; a page without script gets `script-src 'none'`.
    public static func contentSecurityPolicy(nonce: CSPNonce?) -> String {
        let scripts = nonce.map { "'nonce-" + $0.value + "'" } ?? "'none'"
        return "default-src 'none'; script-src " + scripts + "; style-src 'self'; img-src 'self' https: data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// Headers for an HTML page: type, policy, `nosniff`, `no-referrer`, `no-store`, language.
    public static func html(nonce: CSPNonce?, language: String) -> [(String, String)] {
        [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Security-Policy", contentSecurityPolicy(nonce: nonce)),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
            ("Content-Language", language),
        ]
    }
}
