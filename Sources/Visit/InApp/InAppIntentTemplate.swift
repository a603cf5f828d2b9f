import Model

/// The `Location` of an in-app Android visit of one app (decision 0033: the Play Store
/// intent, or the app's intent around it), built once with a placeholder token and filled
/// per visit. Between two visits of one app only the handoff token changes, and the short
/// link in the app intent's data part; building the nested intents afresh (two percent-
/// encodings of a few hundred bytes) cost a visit more than half again of a Play redirect.
///
/// Exact because a token is `bqmh_` and base64url characters, which every encoding on the
/// way (the referrer's, the fallback's, the fallback of the fallback's) leaves as they are:
/// the placeholder, of a token's length and of unreserved characters no token has (`~`),
/// ends up at the same places, once per route, and nothing else in the URI contains it.
public struct InAppIntentTemplate: Sendable {
    /// What the flow answers with.
    public enum Kind: Sendable, Hashable {
        /// `PlayStoreIntent`: the whole URI is the template.
        case playIntent
        /// `AppIntent` with the Play Store intent as fallback: the data part (the short
        /// link) is written per visit, the fragment is the template.
        case appIntent
    }

    static let placeholder =
        HandoffToken.prefix + String(repeating: "~", count: tokenLength - HandoffToken.prefix.count)
    /// `HandoffToken.generate`'s length: `bqmh_` and 43 base64url characters.
    static let tokenLength = 48

    public let kind: Kind
    /// The URI (play intent) or its fragment from `#` (app intent), with placeholders.
    let bytes: [UInt8]
    /// Where each placeholder starts in `bytes`.
    let slots: [Int]
    let packageName: String

    public init(android: AndroidPlatform, kind: Kind) {
        self.kind = kind
        self.packageName = android.packageName
        let play = PlayStoreIntent.url(app: android, token: Self.placeholder)
        var uri = play
        if kind == .appIntent {
            let whole =
                (try? AppIntent.url(link: "https://h", packageName: android.packageName, fallbackURL: play)) ?? ""
            // The fragment: from the last `#` (`Intent.parseUri`'s own cut).
            uri = whole.utf8.lastIndex(of: UInt8(ascii: "#")).map { String(whole[$0...]) } ?? whole
        }
        let bytes = Array(uri.utf8)
        let needle = Array(Self.placeholder.utf8)
        var slots: [Int] = []
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                slots.append(i)
                i += needle.count
            } else {
                i += 1
            }
        }
        self.bytes = bytes
        self.slots = slots
    }

    /// The URI for a visit with `token`; for an app intent, of the short link
    /// `https://<host><target>`. Nil when the token is not of a token's length (never, for a
    /// token the edge made), and the caller then builds the URI afresh.
    public func location(token: String, host: String, target: String) -> String? {
        var token = token
        return token.withUTF8 { t -> String? in
            guard t.count == Self.tokenLength else { return nil }
            guard kind == .appIntent else { return fill(host: "", target: "", t) }
            // The data part as `AppIntent` writes it: `//<host><target>`, escaped for
            // `Uri.parse` where needed; a host and target that need nothing (the usual case)
            // are written straight in, without a string made of them first.
            guard IntentURI.isClean(host), IntentURI.isClean(target) else {
                return fill(host: "", target: IntentURI.escapeData("//" + host + target), t, slashes: false)
            }
            return fill(host: host, target: target, t)
        }
    }

    private func fill(host: String, target: String, _ token: UnsafeBufferPointer<UInt8>, slashes: Bool = true)
        -> String
    {
        var host = host
        var target = target
        let scheme: StaticString = slashes ? "intent://" : "intent:"
        let headCount = kind == .appIntent ? scheme.utf8CodeUnitCount + host.utf8.count + target.utf8.count : 0
        return host.withUTF8 { h in
            target.withUTF8 { p in
                String(unsafeUninitializedCapacity: headCount + bytes.count) { out in
                    var o = 0
                    if kind == .appIntent {
                        // Three writes, not a loop over an array of them (an allocation).
                        o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(
                            fromContentsOf: UnsafeBufferPointer(
                                start: scheme.utf8Start, count: scheme.utf8CodeUnitCount))
                        o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: h)
                        o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: p)
                    }
                    let start = o
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: bytes)
                    for slot in slots {
                        _ = UnsafeMutableBufferPointer(rebasing: out[(start + slot)...]).initialize(
                            fromContentsOf: token)
                    }
                    return o
                }
            }
        }
    }
}
