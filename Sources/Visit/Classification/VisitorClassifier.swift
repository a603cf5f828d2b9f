#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Classifies a visit from its method and `User-Agent`, in the documented order:
/// HEAD, preview bots and crawlers, Android, iOS, desktop; plus the in-app browser tag.
///
/// Hot path (every visit): the UA is lower-cased once into a stack buffer, one pass of
/// `PatternSet` finds every pattern of `UserAgentPatterns` in it, and the decision is a
/// few bit tests in table order. No regex, no Foundation, no heap allocation except the
/// result's strings. Only the first `maxScannedBytes` of a UA are looked at (real UAs
/// are a few hundred bytes).
public enum VisitorClassifier {
    public static let maxScannedBytes = 2048

    /// - Parameters:
    ///   - method: the request method as sent (`HEAD` is case-sensitive in HTTP).
    ///   - userAgent: the `User-Agent` field value; nil when absent (treated as empty: a bot).
    public static func classify(method: String, userAgent: String?) -> Visitor {
        if method == "HEAD" { return Visitor(kind: .head) }
        return classify(userAgent: userAgent)
    }

    /// Classification of a non-HEAD request.
    public static func classify(userAgent: String?) -> Visitor {
        guard let ua = userAgent else { return Visitor(kind: .bot("empty")) }
        return withLowercased(ua) { lower in
            if lower.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return Visitor(kind: .bot("empty")) }
            return classify(lowercased: lower)
        }
    }

    /// Every pattern of `UserAgentPatterns`, compiled once, with the index of each row.
    struct Compiled: Sendable {
        let set: PatternSet
        let namedBots: [(index: Int, name: String)]
        let genericBots: [Int]
        let crawlerMarkers: [Int]
        let mobilePlatforms: [Int]
        let android: Int
        let mobile: Int
        let iPad: Int
        let iOS: [Int]
        let inAppBrowsers: [(index: Int, tag: String)]
        let safari: Int
        let namedBotMask: PatternSet.Matches
        let genericBotMask: PatternSet.Matches
        let crawlerMarkerMask: PatternSet.Matches
        let mobileMask: PatternSet.Matches
        let iOSMask: PatternSet.Matches
        let inAppMask: PatternSet.Matches

        init() {
            var all: [String] = []
            func add(_ p: String) {
                if !all.contains(p) { all.append(p) }
            }
            UserAgentPatterns.namedBots.forEach { add($0.token) }
            UserAgentPatterns.genericBots.forEach(add)
            UserAgentPatterns.crawlerMarkers.forEach(add)
            UserAgentPatterns.mobilePlatforms.forEach(add)
            add(UserAgentPatterns.android)
            add(UserAgentPatterns.mobile)
            add(UserAgentPatterns.iPad)
            UserAgentPatterns.iOS.forEach(add)
            UserAgentPatterns.inAppBrowsers.forEach { add($0.token) }
            add(UserAgentPatterns.safari)
            let set = PatternSet(all)
            self.set = set
            namedBots = UserAgentPatterns.namedBots.map { (set.index(of: $0.token), $0.name) }
            genericBots = UserAgentPatterns.genericBots.map(set.index(of:))
            crawlerMarkers = UserAgentPatterns.crawlerMarkers.map(set.index(of:))
            mobilePlatforms = UserAgentPatterns.mobilePlatforms.map(set.index(of:))
            android = set.index(of: UserAgentPatterns.android)
            mobile = set.index(of: UserAgentPatterns.mobile)
            iPad = set.index(of: UserAgentPatterns.iPad)
            iOS = UserAgentPatterns.iOS.map(set.index(of:))
            inAppBrowsers = UserAgentPatterns.inAppBrowsers.map { (set.index(of: $0.token), $0.tag) }
            safari = set.index(of: UserAgentPatterns.safari)
            namedBotMask = .init(namedBots.map(\.index))
            genericBotMask = .init(genericBots)
            crawlerMarkerMask = .init(crawlerMarkers)
            mobileMask = .init(mobilePlatforms)
            iOSMask = .init(iOS)
            inAppMask = .init(inAppBrowsers.map(\.index))
        }
    }

    static let compiled = Compiled()

    static func classify(lowercased ua: UnsafeBufferPointer<UInt8>) -> Visitor {
        let p = compiled
        let m = p.set.scan(ua)
        if m.intersects(p.namedBotMask) {
            for (index, name) in p.namedBots where m.contains(index) { return Visitor(kind: .bot(name)) }
        }
        let tag = inAppTag(m)
        if tag == nil && m.intersects(p.genericBotMask) {
            // Crawler words count on a phone's UA only next to a crawler marker (see UserAgentPatterns).
            if !m.intersects(p.mobileMask) || m.intersects(p.crawlerMarkerMask) {
                return Visitor(kind: .bot("generic"))
            }
        }
        if m.contains(p.android) {
            return Visitor(kind: .android, inAppBrowser: tag, device: m.contains(p.mobile) ? .phone : .tablet)
        }
        if m.intersects(p.iOSMask) {
            // Every iOS browser keeps `Safari/`; an iOS UA without it is an app's WKWebView.
            let webView = tag == nil && !m.contains(p.safari)
            return Visitor(
                kind: .ios(osVersion: iOSVersion(lowercased: ua)), inAppBrowser: webView ? "webview" : tag,
                device: m.contains(p.iPad) ? .tablet : .phone)
        }
        return Visitor(kind: .desktop, inAppBrowser: tag)
    }

    /// Every in-app browser tag a visit may carry, in the table's order without repeats:
    /// what the operator's switches may name (decision 0033 §5).
    public static let inAppBrowserTags: [String] = UserAgentPatterns.inAppBrowsers.reduce(into: []) { tags, row in
        if !tags.contains(row.tag) { tags.append(row.tag) }
    }

    /// The in-app browser tag of a UA (nil for regular browsers), independent of its class.
    public static func inAppBrowser(userAgent: String) -> String? {
        withLowercased(userAgent) { inAppTag(compiled.set.scan($0)) }
    }

    static func inAppTag(_ m: PatternSet.Matches) -> String? {
        guard m.intersects(compiled.inAppMask) else { return nil }
        for (index, tag) in compiled.inAppBrowsers where m.contains(index) { return tag }
        return nil
    }

    /// Runs `body` over the first `maxScannedBytes` of `text`, ASCII-lower-cased, in a stack buffer.
    static func withLowercased<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        return text.withUTF8 { raw in
            let n = min(raw.count, maxScannedBytes)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(n, 1)) { buffer in
                for i in 0..<n {
                    let c = raw[i]
                    buffer[i] = (c >= 0x41 && c <= 0x5A) ? c | 0x20 : c
                }
                return body(UnsafeBufferPointer(rebasing: buffer[0..<n]))
            }
        }
    }

    // MARK: iOS version

    /// `CPU iPhone OS 17_4_1 like Mac OS X` -> `17.4.1`; `CPU OS 17_4 like Mac OS X` (iPad) -> `17.4`.
    ///
    /// Safari on iOS 26+ reports a frozen `18_6`; when a `Version/` of 26 or later sits
    /// beside it, that version is returned instead (`Version/26.0` -> `26.0`). Other
    /// WebKit apps on iOS 26+ keep the frozen `18.6`, which is what the UA says: the
    /// resolver should expect OS versions from UAs to be approximate.
    public static func iOSVersion(userAgent: String) -> String? {
        withLowercased(userAgent) { iOSVersion(lowercased: $0) }
    }

    static func iOSVersion(lowercased ua: UnsafeBufferPointer<UInt8>) -> String? {
        for marker in UserAgentPatterns.iOSVersionMarkers {
            guard let at = find(ua, marker) else { continue }
            guard let version = dottedVersion(ua, from: at + marker.utf8.count, separator: UInt8(ascii: "_")) else {
                continue
            }
            if version == UserAgentPatterns.frozenIOSVersion, let start = find(ua, UserAgentPatterns.safariVersion),
                let real = dottedVersion(ua, from: start + UserAgentPatterns.safariVersion.utf8.count, separator: 0x2E),
                let major = Int(real.prefix { $0 != "." }), major >= 26
            {
                return real
            }
            return version
        }
        return nil
    }

    /// Digits separated by `separator` starting at `start`, written with dots; at most
    /// four parts of at most four digits (anything longer is not an OS version).
    static func dottedVersion(_ ua: UnsafeBufferPointer<UInt8>, from start: Int, separator: UInt8) -> String? {
        var out: [UInt8] = []
        var parts = 0
        var digits = 0
        var i = start
        while i < ua.count {
            let c = ua[i]
            if c >= 0x30 && c <= 0x39 {
                if digits == 0 { parts += 1 }
                digits += 1
                if digits > 4 || parts > 4 { return nil }
                out.append(c)
            } else if c == separator && digits > 0 && i + 1 < ua.count && ua[i + 1] >= 0x30 && ua[i + 1] <= 0x39 {
                out.append(UInt8(ascii: "."))
                digits = 0
            } else {
                break
            }
            i += 1
        }
        return parts == 0 ? nil : String(decoding: out, as: UTF8.self)
    }

    // MARK: Byte search (positions, for the iOS version only)

    /// Offset of the first occurrence of `needle` (ASCII, lower-case) in `hay`:
    /// `memchr` to the next candidate first byte, `memcmp` for the rest.
    static func find(_ hay: UnsafeBufferPointer<UInt8>, _ needle: String) -> Int? {
        guard let base = hay.baseAddress else { return nil }
        var needle = needle
        return needle.withUTF8 { n -> Int? in
            guard let nBase = n.baseAddress, n.count > 0, n.count <= hay.count else { return nil }
            let last = hay.count - n.count
            var i = 0
            while i <= last {
                guard let p = memchr(base + i, Int32(n[0]), last - i + 1) else { return nil }
                let j = UnsafeRawPointer(p) - UnsafeRawPointer(base)
                if n.count == 1 || memcmp(base + j + 1, nBase + 1, n.count - 1) == 0 { return j }
                i = j + 1
            }
            return nil
        }
    }
}
