import CPostgreSQL

extension PGConnectionSettings {
    /// `text` (a connection string or URL libpq reads) with every password replaced by
    /// `***`, keeping the operator's form: what to show when telling them what to set
    /// (`migrate-store`'s last lines). `redacted` is the other choice, for messages: it
    /// drops the password and rewrites a URL as keywords.
    public static func masked(_ text: String) -> String {
        let mask = "***"
        for scheme in ["postgresql://", "postgres://"] where text.hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            var authority = String(rest[..<authorityEnd])
            var tail = String(rest[authorityEnd...])
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                if let colon = userinfo.firstIndex(of: ":") {
                    authority = userinfo[..<colon] + ":" + mask + authority[at...]
                }
            }
            if let q = tail.firstIndex(of: "?") {
                let items = tail[tail.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false)
                let cleaned = items.map { item -> String in
                    let key = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                    return secretOptions.contains(key) ? key + "=" + mask : String(item)
                }
                tail = tail[...q] + cleaned.joined(separator: "&")
            }
            return scheme + authority + tail
        }
        // Keywords: read by libpq (quotes and escapes as it reads them), written back.
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &errorMessage) else {
            if let e = errorMessage { PQfreemem(e) }
            return mask
        }
        defer { PQconninfoFree(options) }
        var pairs: [String] = []
        var i = 0
        while let keyword = options[i].keyword {
            if let value = options[i].val {
                let key = String(cString: keyword)
                pairs.append(key + "=" + (secretOptions.contains(key) ? mask : quote(String(cString: value))))
            }
            i += 1
        }
        return pairs.joined(separator: " ")
    }
}
