/// The dynamic values a visit captures from the short link's query (seed 001).
///
/// Rules:
/// - only keys listed in the link's `dynamicKeys` (compared exactly, after decoding);
///   every other query value is dropped and never reaches a click, a handoff or an app;
/// - `application/x-www-form-urlencoded` decoding: `%XX` once, `+` as a space; a pair
///   with a broken escape (`%` without two hex digits) or with bytes that are not UTF-8
///   is dropped;
/// - values are non-empty strings of at most `maxValueLength` Unicode scalars; a longer
///   value is **dropped, not truncated** (a cut value could route the app wrongly);
/// - a repeated key: the **first acceptable value wins** (`?ref=&ref=bob` gives `bob`,
///   `?ref=alice&ref=bob` gives `alice`);
/// - at most `maxValues` pairs, in query order.
///
/// The edge's visits and the resolver's app-link opens both use this type, so a visit
/// and a direct open of the same URL capture the same values.
public enum DynamicValues {
    public static let maxValues = 20
    public static let maxValueLength = 256
    /// A dynamic `ref` longer than this does not become the referral code (the static
    /// `referralCode` has the same bound); it stays in the dynamic values.
    public static let maxReferralCodeLength = 128
    /// The dynamic key that can supply the referral code.
    public static let referralKey = "ref"

    /// - Parameters:
    ///   - query: the raw query, without `?` (`HTTPRequest.query`); nil when there is none.
    ///   - allowed: the link's `dynamicKeys`.
    public static func capture(query: Substring?, allowed: [String]) -> [(String, String)] {
        guard let query, !query.isEmpty, !allowed.isEmpty else { return [] }
        return filter(QueryString.pairs(query), allowed: allowed)
    }

    /// The pairs whose keys `allowed` lists, by the rules above (also applied to the
    /// values an iOS click captured when a probabilistic match resolves it).
    public static func filter(_ pairs: [(String, String)], allowed: [String]) -> [(String, String)] {
        var out: [(String, String)] = []
        for (key, value) in pairs where allowed.contains(key) {
            guard !value.isEmpty, value.unicodeScalars.count <= maxValueLength,
                !out.contains(where: { $0.0 == key })
            else { continue }
            out.append((key, value))
            if out.count == maxValues { break }
        }
        return out
    }

    /// Seed 001: a static referral code wins; else an allowed `ref` value supplies it.
    ///
    /// `dynamic` must be the output of `capture`, so a `ref` in it was allowed by the link.
    /// An empty static code counts as none.
    public static func referralCode(static code: String?, dynamic: [(String, String)]) -> String? {
        if let code, !code.isEmpty { return code }
        for (key, value) in dynamic where key == referralKey {
            return value.unicodeScalars.count <= maxReferralCodeLength ? value : nil
        }
        return nil
    }
}
