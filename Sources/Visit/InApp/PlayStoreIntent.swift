import Model

/// The Play redirect for an Android visitor inside an in-app web view (issue 36, item 2):
/// an `intent:` URI that the Play Store *app* opens, with the same `referrer` as today's
/// Play URL, so the Install Referrer (and the handoff token in it) survives.
///
///     intent://details?id=<package>&referrer=<value>#Intent;scheme=market;
///         package=com.android.vending;S.browser_fallback_url=<today's Play URL>;end
///
/// The data part is today's Play URL's query, byte for byte, behind `market://details?`
/// (`parseUri` puts the scheme back: `market://details?id=...&referrer=...`), so Play
/// decodes the referrer once exactly as it does for the https URL. The fallback is
/// today's Play URL, escaped once for the fragment (`IntentURI`); a browser that cannot
/// launch the intent opens it, and lands where a regular browser's 302 would.
public enum PlayStoreIntent {
    public static let playStorePackage = "com.android.vending"
    public static let scheme = "market"

    /// The intent URI for `app` and `token`; `PlayReferrer.url(app:token:)` builds the
    /// referrer, so an operator's `android.playStoreUrl` (its `hl`, UTM, referrer pairs)
    /// is kept here as it is in the 302.
    public static func url(app: AndroidPlatform, token: String) -> String {
        url(playURL: PlayReferrer.url(app: app, token: token))
    }

    /// The intent URI for a Play URL `PlayReferrer` built
    /// (`https://play.google.com/store/apps/details?<query>`). In one allocation when the
    /// query needs no escape (always, for a URL `PlayReferrer` built): this runs on every
    /// in-app Android visit.
    public static func url(playURL: String) -> String {
        var url = playURL
        return url.withUTF8 { u in
            let q = u.firstIndex(of: UInt8(ascii: "?")).map { $0 + 1 } ?? u.count
            let query = UnsafeBufferPointer(rebasing: u[q...])
            guard IntentURI.isClean(query) else {
                return head + IntentURI.escapeData(String(decoding: query, as: UTF8.self)) + middle
                    + PercentCoding.encode(playURL) + tail
            }
            let count =
                headBytes.count + query.count + middleBytes.count + PercentCoding.encodedCount(u) + tail.utf8.count
            return String(unsafeUninitializedCapacity: count) { out in
                var o = UnsafeMutableBufferPointer(rebasing: out[0...]).initialize(fromContentsOf: headBytes)
                o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: query)
                o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: middleBytes)
                o = PercentCoding.encode(u, into: out, at: o)
                o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: tailBytes)
                return o
            }
        }
    }

    private static let head = "intent://details?"
    private static let middle =
        "#Intent;scheme=" + scheme + ";package=" + playStorePackage + ";S." + IntentURI.browserFallbackKey + "="
    private static let tail = ";end"
    private static let headBytes = Array(head.utf8)
    private static let middleBytes = Array(middle.utf8)
    private static let tailBytes = Array(tail.utf8)
}
