import Model

/// An Android `intent:` URI, written the way `Intent.parseUri(uri, Intent.URI_INTENT_SCHEME)`
/// reads it back (AOSP `core/java/android/content/Intent.java`, `parseUri` and `toUri` /
/// `toUriInner`; Chrome and in-app web views that launch intents call `parseUri`):
///
///     intent:<data without its scheme>#Intent;scheme=<s>;package=<p>;S.<key>=<value>;end
///
/// How `parseUri` reads it, and so what the writer must guarantee:
/// - the fragment starts at the *last* `#` of the whole URI (`lastIndexOf("#")`), so no
///   `#` may follow it: every value in it is escaped, and the data part carries no raw `#`;
/// - each item runs to the next `;` and its value is cut at the first `=`, then
///   `Uri.decode`d once (`%XX` as UTF-8, `+` kept as `+`); an extra's key is decoded too;
/// - the data part is taken as is (`Uri.parse`, no decoding) and `intent:` is replaced by
///   `<scheme>:`, so the data part's own escapes reach the app unchanged, exactly once.
///
/// Values are escaped with RFC 3986's unreserved set (`PercentCoding.encode`), a subset of
/// what `toUri`'s `Uri.encode` leaves raw (`Uri.java`'s `isAllowed`: also `!'()*`), so
/// `Uri.decode` returns every value byte for byte; the whole URI is visible ASCII with a
/// single `#`, which no browser's URL parser rewrites on the way.
public struct IntentURI: Sendable, Equatable {
    /// The target URI without its scheme (`//details?id=...`, `//example.com/key?q=1`).
    public var data: String
    public var scheme: String
    public var package: String?
    /// `S.` (string) extras, in order.
    public var extras: [(key: String, value: String)]

    public init(data: String, scheme: String, package: String?, extras: [(key: String, value: String)] = []) {
        self.data = data
        self.scheme = scheme
        self.package = package
        self.extras = extras
    }

    /// The extra Chrome opens (http and https only) when no app takes the intent.
    public static let browserFallbackKey = "browser_fallback_url"

    /// The `intent:` URI, in one string.
    public var uri: String {
        var out = "intent:"
        out.reserveCapacity(data.utf8.count + 64 + extras.reduce(0) { $0 + $1.value.utf8.count * 3 })
        out += Self.escapeData(data)
        out += "#Intent;scheme="
        out += PercentCoding.encode(scheme)
        if let package {
            out += ";package="
            out += PercentCoding.encode(package)
        }
        for (key, value) in extras {
            out += ";S."
            out += PercentCoding.encode(key)
            out += "="
            out += PercentCoding.encode(value)
        }
        out += ";end"
        return out
    }

    /// The data part as `Uri.parse` should see it: kept as written (so its escapes survive
    /// once), except the bytes that would change how it is split or read: `#` (it would
    /// end the data early for a URL parser), a `%` that starts no `%XX` escape, spaces,
    /// controls, `"<>\^`{|}` and non-ASCII, each written as `%XX`.
    public static func escapeData(_ data: String) -> String {
        if isClean(data) { return data }  // the usual case: a URL the edge composed
        let bytes = Array(data.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            let startsEscape =
                c == UInt8(ascii: "%") && i + 2 < bytes.count && isHex(bytes[i + 1]) && isHex(bytes[i + 2])
            if keptRaw(c) || startsEscape {
                out.append(c)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(c >> 4)])
                out.append(hex[Int(c & 0x0F)])
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `escapeData` would return `data` unchanged.
    static func isClean(_ data: String) -> Bool {
        var text = data
        return text.withUTF8 { isClean($0) }
    }

    static func isClean(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < b.count, isHex(b[i + 1]), isHex(b[i + 2]) else { return false }
            } else if !keptRaw(c) {
                return false
            }
            i += 1
        }
        return true
    }

    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isHex(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    /// Visible ASCII other than `#`, `%` and the characters RFC 3986 never allows raw.
    private static func keptRaw(_ c: UInt8) -> Bool {
        c > 0x20 && c < 0x7F && !"#%\"<>\\^`{|}".utf8.contains(c)
    }

    public static func == (a: IntentURI, b: IntentURI) -> Bool {
        a.data == b.data && a.scheme == b.scheme && a.package == b.package
            && a.extras.elementsEqual(b.extras, by: { $0.key == $1.key && $0.value == $1.value })
    }
}
