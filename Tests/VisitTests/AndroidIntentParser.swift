/// How Android reads an `intent:` URI, written from AOSP for the tests: `Intent.parseUri(uri,
/// URI_INTENT_SCHEME)` (`core/java/android/content/Intent.java`), `Uri.decode` and
/// `Uri.getQueryParameter` (`core/java/android/net/Uri.java`, through `UriCodec.decode`).
/// Only what the edge's intents use: data, scheme, package, action and `S.` extras.
struct AndroidIntentParser {
    struct Intent: Equatable {
        var data: String?
        var package: String?
        var action: String?
        var extras: [String: String] = [:]
    }

    struct SyntaxError: Error, Equatable { let reason: String }

    /// `Intent.parseUri(uri, Intent.URI_INTENT_SCHEME)`.
    static func parseUri(_ uri: String) throws -> Intent {
        let u = Array(uri.unicodeScalars)
        func startsWith(_ s: String, at i: Int) -> Bool {
            let p = Array(s.unicodeScalars)
            return i >= 0 && i + p.count <= u.count && Array(u[i..<(i + p.count)]) == p
        }
        func indexOf(_ c: Character, from: Int) -> Int {
            var i = max(from, 0)
            while i < u.count {
                if Character(u[i]) == c { return i }
                i += 1
            }
            return -1
        }
        func substring(_ a: Int, _ b: Int) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: u[a..<b])
            return String(s)
        }
        guard startsWith("intent:", at: 0) else { return Intent(data: uri, action: "android.intent.action.VIEW") }
        // `i = uri.lastIndexOf("#")`: the fragment starts at the LAST '#'.
        var i = -1
        for k in stride(from: u.count - 1, through: 0, by: -1) where u[k] == "#" {
            i = k
            break
        }
        guard i >= 0 else { return Intent(data: uri, action: "android.intent.action.VIEW") }
        guard startsWith("#Intent;", at: i) else { throw SyntaxError(reason: "old format") }
        var intent = Intent(action: "android.intent.action.VIEW")
        var data = substring(0, i)
        var scheme: String?
        i += "#Intent;".count
        while !startsWith("end", at: i) {
            var eq = indexOf("=", from: i)
            if eq < 0 { eq = i - 1 }
            let semi = indexOf(";", from: i)
            guard semi >= 0 else { throw SyntaxError(reason: "illegal Intent URI format") }  // IndexOutOfBounds
            let value = eq < semi ? uriDecode(substring(eq + 1, semi)) : ""
            if startsWith("action=", at: i) {
                intent.action = value
            } else if startsWith("package=", at: i) {
                intent.package = value
            } else if startsWith("scheme=", at: i) {
                scheme = value
            } else if startsWith("S.", at: i) {
                guard eq > i + 2 else { throw SyntaxError(reason: "illegal Intent URI format") }
                intent.extras[uriDecode(substring(i + 2, eq))] = value
            } else if startsWith("category=", at: i) || startsWith("launchFlags=", at: i)
                || startsWith("component=", at: i) || startsWith("sourceBounds=", at: i)
            {
                // Not used by the edge's intents.
            } else {
                throw SyntaxError(reason: "unknown EXTRA type")
            }
            i = semi + 1
        }
        if data.hasPrefix("intent:") {
            data = String(data.dropFirst(7))
            if let scheme { data = scheme + ":" + data }
        }
        if !data.isEmpty { intent.data = data }
        return intent
    }

    /// `Uri.decode`: `%XX` escapes as UTF-8, `+` kept; a broken escape or bad UTF-8 is U+FFFD.
    static func uriDecode(_ s: String, convertPlus: Bool = false) -> String {
        let b = Array(s.utf8)
        var out: [UInt8] = []
        var i = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        while i < b.count {
            if b[i] == UInt8(ascii: "%") {
                if i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]) {
                    out.append(h << 4 | l)
                    i += 3
                    continue
                }
                out.append(contentsOf: Array("\u{FFFD}".utf8))
                i += 1
                continue
            }
            out.append(convertPlus && b[i] == UInt8(ascii: "+") ? 0x20 : b[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `Uri.parse(data).getQueryParameter(key)`: the first item named `key` (compared
    /// encoded), its value decoded once with `+` as a space. Nil when absent.
    static func queryParameter(_ key: String, in data: String) -> String? {
        var rest = Substring(data)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let q = rest.firstIndex(of: "?") else { return nil }
        for item in rest[rest.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard uriDecode(String(parts[0])) == key else { continue }
            return parts.count > 1 ? uriDecode(String(parts[1]), convertPlus: true) : ""
        }
        return nil
    }
}
