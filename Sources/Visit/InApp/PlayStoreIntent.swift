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
    /// (`https://play.google.com/store/apps/details?<query>`).
    public static func url(playURL: String) -> String {
        var query = Substring(playURL)
        if let q = query.firstIndex(of: "?") { query = query[query.index(after: q)...] } else { query = "" }
        let data = IntentURI.escapeData(String(query))
        let fallback = PercentCoding.encode(playURL)
        var out = ""
        out.reserveCapacity(head.utf8.count + data.utf8.count + middle.utf8.count + fallback.utf8.count + 4)
        out += head
        out += data
        out += middle
        out += fallback
        out += ";end"
        return out
    }

    private static let head = "intent://details?"
    private static let middle =
        "#Intent;scheme=" + scheme + ";package=" + playStorePackage + ";S." + IntentURI.browserFallbackKey + "="
}
