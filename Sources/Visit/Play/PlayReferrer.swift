import Model

/// The Google Play URL an Android visitor is redirected to, with the handoff token
/// nested in the Install Referrer (`spec/resolver-contract.md`, "Where the handoff
/// token travels").
///
/// `referrer` holds the query string `biqli_token=<token>`, percent-encoded exactly
/// once (`biqli_token%3Dbqmh_...`). Play decodes it once and hands it to the app; the
/// Android SDK splits it at `&`, takes the first `biqli_token` and checks its format.
/// Double encoding, or a raw `&` or `#` in the value, loses the install for good, so
/// the value is encoded with RFC 3986's unreserved set only.
///
/// An operator URL (`android.playStoreUrl`) keeps its other query items (`hl`, `gl`,
/// UTM...) as written; its own `referrer` is decoded once, any `biqli_token` in it is
/// removed (the SDK takes the first one, which must be ours), `&biqli_token=<token>` is
/// appended, and the result is encoded once. Its fragment is dropped.
///
/// The decoded referrer stays under 200 bytes. The operator's part may take at most
/// `maxOperatorReferrerBytes`; a longer one is refused at save time
/// (`validateStoreURL`), and if one is met at visit time anyway it is dropped, never
/// the token. Likewise a stored URL that breaks the save-time rules is replaced by
/// the default URL rather than risk losing the token.
public enum PlayReferrer {
    public static let tokenKey = "biqli_token"
    public static let storeBase = "https://play.google.com/store/apps/details"
    /// Bound of the decoded referrer (the spec's "under 200 bytes").
    public static let maxReferrerBytes = 199
    /// Room left for the operator's own referrer pairs: 199 - `&biqli_token=` - 48.
    public static let maxOperatorReferrerBytes = maxReferrerBytes - 1 - (tokenKey.utf8.count + 1) - HandoffToken.length

    /// The redirect target for an Android visit with `token`.
    public static func url(app: AndroidPlatform, token: String) -> String {
        if let custom = app.playStoreUrl, let parsed = try? StoreURL.parse(custom, packageName: app.packageName) {
            return parsed.render(token: token, packageName: app.packageName)
        }
        return defaultURL(packageName: app.packageName, token: token)
    }

    /// `storeBase?id=<package>&referrer=<biqli_token=token, encoded once>`, in one string.
    /// Encoding is byte by byte, so encoding `biqli_token=<token>` is encoding the key
    /// (all unreserved), `=` (`%3D`) and the token in turn; a well-formed token is all
    /// unreserved too and comes out as it went in. This runs on every Android visit.
    static func defaultURL(packageName: String, token: String) -> String {
        var package = packageName
        var token = token
        return package.withUTF8 { p in
            token.withUTF8 { t in
                let count =
                    defaultHead.count + PercentCoding.encodedCount(p) + referrerHead.count
                    + PercentCoding.encodedCount(t)
                return String(unsafeUninitializedCapacity: count) { out in
                    var o = out.initialize(fromContentsOf: defaultHead)
                    o = PercentCoding.encode(p, into: out, at: o)
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: referrerHead)
                    return PercentCoding.encode(t, into: out, at: o)
                }
            }
        }
    }

    private static let defaultHead: [UInt8] = Array((storeBase + "?id=").utf8)
    private static let referrerHead: [UInt8] = Array(("&referrer=" + tokenKey + "%3D").utf8)

    /// Save-time check of `android.playStoreUrl` for the app's package.
    public static func validateStoreURL(_ url: String, packageName: String) throws(PlayStoreURLError) {
        let parsed = try StoreURL.parse(url, packageName: packageName)
        let bytes = parsed.operatorReferrer.utf8.count
        if bytes > maxOperatorReferrerBytes { throw .referrerTooLong(bytes: bytes, limit: maxOperatorReferrerBytes) }
    }

    // MARK: The receiving side, as Play and the Android SDK see it (for tests and `check`)

    /// The raw (still encoded) value of the first `referrer` query item of a Play URL.
    public static func referrerParameter(fromPlayURL url: String) -> String? {
        var query = Substring(url)
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        guard let q = query.firstIndex(of: "?") else { return nil }
        for item in query[query.index(after: q)...].split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == "referrer" { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }

    /// What the Android SDK extracts from a referrer value: decode once, split at `&`,
    /// the first `biqli_token`, accepted only when well formed.
    public static func token(fromReferrer encoded: String) -> String? {
        guard let decoded = PercentCoding.decode(encoded.utf8, plusAsSpace: false) else { return nil }
        for pair in decoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == tokenKey else { continue }
            let value = parts.count > 1 ? parts[1] : ""
            return HandoffToken.isWellFormed(value) ? String(value) : nil
        }
        return nil
    }
}

/// An operator Play URL taken apart.
struct StoreURL {
    /// Query items in order, raw; `nil` marks where the referrer goes.
    var items: [Substring?]
    var hasId: Bool
    /// The operator's decoded referrer, without any `biqli_token` pair.
    var operatorReferrer: String

    static func parse(_ url: String, packageName: String) throws(PlayStoreURLError) -> StoreURL {
        var text = Substring(url)
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        guard text.hasPrefix(PlayReferrer.storeBase) else { throw .notPlayStoreURL }
        let rest = text.dropFirst(PlayReferrer.storeBase.count)
        guard rest.isEmpty || rest.first == "?" else { throw .notPlayStoreURL }
        guard rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"\"<>\\^`{|}".utf8.contains($0) }) else {
            throw .invalidCharacters
        }
        var out = StoreURL(items: [], hasId: false, operatorReferrer: "")
        var sawReferrer = false
        for item in rest.dropFirst().split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = PercentCoding.decode(parts[0].utf8, plusAsSpace: true)
            let rawValue = parts.count > 1 ? parts[1] : ""
            switch key {
            case "id":
                let found = PercentCoding.decode(rawValue.utf8, plusAsSpace: true) ?? String(rawValue)
                if found != packageName { throw .packageMismatch(found: found) }
                if out.hasId { continue }
                out.hasId = true
                out.items.append(item)
            case "referrer":
                if sawReferrer { continue }  // a second referrer would only confuse Play
                sawReferrer = true
                // `+` is kept as `+` (RFC 3986 decoding): the operator's bytes reach the app unchanged.
                guard let decoded = PercentCoding.decode(rawValue.utf8, plusAsSpace: false) else {
                    throw .referrerNotDecodable
                }
                out.operatorReferrer = withoutToken(decoded)
                out.items.append(nil)
            default:
                out.items.append(item)
            }
        }
        if !sawReferrer { out.items.append(nil) }
        return out
    }

    /// `decoded` without empty pairs and without any `biqli_token` pair.
    static func withoutToken(_ decoded: String) -> String {
        decoded.split(separator: "&").filter { pair in
            let key = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return PercentCoding.decode(key.utf8, plusAsSpace: true) != PlayReferrer.tokenKey
        }.joined(separator: "&")
    }

    func render(token: String, packageName: String) -> String {
        var referrer = PlayReferrer.tokenKey + "=" + token
        if !operatorReferrer.isEmpty && operatorReferrer.utf8.count <= PlayReferrer.maxOperatorReferrerBytes {
            referrer = operatorReferrer + "&" + referrer
        }
        var parts: [String] = []
        if !hasId { parts.append("id=" + PercentCoding.encode(packageName.utf8)) }
        for item in items {
            parts.append(item.map(String.init) ?? "referrer=" + PercentCoding.encode(referrer.utf8))
        }
        return PlayReferrer.storeBase + "?" + parts.joined(separator: "&")
    }
}
