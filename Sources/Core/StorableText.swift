/// The one rule for text that comes from outside and is kept (issue 33 item 2): a webhook
/// receiver's answer, an ACME server's problem, an outgoing request's failure. Such text
/// is not validated as a request is (it cannot be refused, only recorded), so it is made
/// storable instead: bytes that are not UTF-8 and every NUL (U+0000, which PostgreSQL's
/// `text` cannot hold and SQLite's can) become U+FFFD, the same on both stores. The
/// store still refuses a write of a NUL (`StoreError.textWithNUL`): that refusal is for
/// requests, and outside text never reaches it.
public enum StorableText {
    /// The replacement of a NUL and of bytes that are not UTF-8.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// `bytes` as storable text, at most `maxBytes` of them read (a character cut at the
    /// end becomes U+FFFD: fine for the preview such text is).
    public static func from(_ bytes: some Collection<UInt8>, maxBytes: Int = .max) -> String {
        clean(String(decoding: bytes.prefix(maxBytes), as: UTF8.self))
    }

    /// `text` as storable text: NULs replaced.
    public static func clean(_ text: String) -> String {
        guard text.utf8.contains(0) else { return text }
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars { scalars.append(s == "\u{0}" ? replacement : s) }
        return String(scalars)
    }

    /// `clean`, keeping nil.
    public static func clean(_ text: String?) -> String? { text.map(clean) }
}
