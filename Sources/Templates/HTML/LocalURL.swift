/// A URL on the page's own origin: a path (`/console/links/biq_lnk_...?days=7`) or a
/// fragment (`#main`), safe to put in `href`, `src` or `action`.
///
/// The rule, checked once at construction: it starts with one `/` (never `//` or `/\`,
/// which browsers read as another host) or with `#`; it holds no whitespace, control
/// character, backslash, quote, `<`, `>` or backtick, and nothing outside ASCII (callers
/// percent-encode what they put in, as a path segment or a query value must be anyway).
/// The text is still HTML-escaped when rendered (`&` between query parameters becomes `&amp;`).
public struct LocalURL: Sendable, Hashable, CustomStringConvertible {
    public let path: String

    /// Nil unless `text` satisfies the rule above.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return nil }
        if first == UInt8(ascii: "/") {
            if bytes.count > 1 && (bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\")) { return nil }
        } else if first != UInt8(ascii: "#") {
            return nil
        }
        for b in bytes {
            switch b {
            case 0..<0x21, 0x7F...: return nil
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"),
                UInt8(ascii: "`"):
                return nil
            default: continue
            }
        }
        path = text
    }

    public var description: String { path }
}
