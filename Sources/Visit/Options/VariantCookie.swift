/// The first-party cookie that keeps a visitor in the arm they got (decision 0032):
/// `bq_v=<arm>.<fingerprint>` on the short domain, `Path=/<key>` (one per link), 90 days.
public enum VariantCookie {
    public static let name = "bq_v"
    public static let maxAgeSeconds = 90 * 24 * 3_600

    /// The arm kept in the request's `Cookie` header for the variants whose fingerprint is
    /// `fingerprint`: nil when there is none, it belongs to another version of the test,
    /// or it names no arm below `count`.
    public static func arm(cookieHeader: Substring?, fingerprint: String, count: Int) -> Int? {
        guard let cookieHeader else { return nil }
        for pair in cookieHeader.split(separator: ";") {
            var p = pair[...]
            while p.utf8.first == 0x20 { p = p.dropFirst() }
            guard p.hasPrefix("bq_v=") else { continue }
            let value = p.dropFirst(5)
            guard let dot = value.firstIndex(of: "."), value[value.index(after: dot)...] == fingerprint else {
                continue
            }
            let digits = value[..<dot].utf8
            guard digits.count == 1, let d = digits.first, d >= 0x30 && d <= 0x39, Int(d - 0x30) < count else {
                continue
            }
            return Int(d - 0x30)
        }
        return nil
    }

    /// The `Set-Cookie` value keeping `arm` for the link at `/<key>`; `Secure` over HTTPS.
    public static func setCookie(arm: Int, fingerprint: String, key: Substring, secure: Bool) -> String {
        var value = "bq_v=\(arm).\(fingerprint); Path=/\(key); Max-Age=\(maxAgeSeconds); HttpOnly; SameSite=Lax"
        if secure { value += "; Secure" }
        return value
    }
}
