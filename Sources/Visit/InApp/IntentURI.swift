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

    /// The `intent:` URI, written in one allocation: every in-app Android visit makes one
    /// or two, and appending piece by piece cost more than the rest of the visit.
    public var uri: String {
        let data = Self.escapeData(self.data)
        var count = "intent:".utf8.count + data.utf8.count + "#Intent;scheme=".utf8.count + ";end".utf8.count
        count += Self.encodedCount(scheme)
        if let package { count += ";package=".utf8.count + Self.encodedCount(package) }
        for (key, value) in extras {
            count += ";S.".utf8.count + Self.encodedCount(key) + 1 + Self.encodedCount(value)
        }
        return String(unsafeUninitializedCapacity: count) { out in
            var o = 0
            func raw(_ text: String) {
                var text = text
                text.withUTF8 { o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: $0) }
            }
            func encoded(_ text: String) {
                var text = text
                text.withUTF8 { o = PercentCoding.encode($0, into: out, at: o) }
            }
            raw("intent:")
            raw(data)
            raw("#Intent;scheme=")
            encoded(scheme)
            if let package {
                raw(";package=")
                encoded(package)
            }
            for (key, value) in extras {
                raw(";S.")
                encoded(key)
                raw("=")
                encoded(value)
            }
            raw(";end")
            return o
        }
    }

    private static func encodedCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { PercentCoding.encodedCount($0) }
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
        guard c > 0x20 && c < 0x7F else { return false }
        // A switch, not a search of a string of them: this runs for every byte of the URI.
        switch c {
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"),
            UInt8(ascii: "}"):
            return false
        default:
            return true
        }
    }

    public static func == (a: IntentURI, b: IntentURI) -> Bool {
        a.data == b.data && a.scheme == b.scheme && a.package == b.package
            && a.extras.elementsEqual(b.extras, by: { $0.key == $1.key && $0.value == $1.value })
    }
}
