import Model
import XCTest

@testable import Visit

/// The intents of issue 36 (items 2 and 3), read back the way Android reads them
/// (`AndroidIntentParser`, written from AOSP's `Intent.parseUri` and `Uri`).
final class AndroidIntentTests: XCTestCase {
    private let token = "bqmh_0123456789abcdefghijklmnopqrstuvwxyzABCDE_-"
    private let app = AndroidPlatform(packageName: "com.example.app", playStoreUrl: nil)

    /// Tokens and values that would break a careless writer: every character `parseUri`
    /// or a query treats specially, spaces and non-ASCII.
    private let hostile = [
        "bqmh_a;b#c%d=e&f g", "ü€😀", "%25%3B", ";end#Intent;scheme=evil;", "a+b", "S.x=y;", "#", "%", "=&;",
    ]

    private func occurrences(_ needle: String, in hay: String) -> Int {
        guard !needle.isEmpty else { return 0 }
        return hay.components(separatedBy: needle).count - 1
    }

    /// What Play and then the SDK get from the intent: the parsed intent, the referrer Play
    /// reads from the `market:` data, and the fallback Chrome would open.
    private func readPlayIntent(_ uri: String) throws -> (AndroidIntentParser.Intent, String?, String?) {
        let intent = try AndroidIntentParser.parseUri(uri)
        let referrer = intent.data.flatMap { AndroidIntentParser.queryParameter("referrer", in: $0) }
        return (intent, referrer, intent.extras[IntentURI.browserFallbackKey])
    }

    private func assertVisibleASCIIWithOneHash(_ uri: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, uri, file: file, line: line)
        XCTAssertEqual(occurrences("#", in: uri), 1, uri, file: file, line: line)
    }

    // MARK: (a) Play Store intent

    func testPlayIntentHasTheIssuesShape() {
        let fallback = "https://play.google.com/store/apps/details?id=com.example.app&referrer=biqli_token%3D" + token
        XCTAssertEqual(PlayReferrer.url(app: app, token: token), fallback)
        XCTAssertEqual(
            PlayStoreIntent.url(app: app, token: token),
            "intent://details?id=com.example.app&referrer=biqli_token%3D" + token
                + "#Intent;scheme=market;package=com.android.vending;S.browser_fallback_url="
                + "https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.example.app%26referrer%3Dbiqli_token%253D"
                + token + ";end")
    }

    func testPlayIntentOpensThePlayAppWithTheReferrerOfTodaysURL() throws {
        let uri = PlayStoreIntent.url(app: app, token: token)
        let (intent, referrer, fallback) = try readPlayIntent(uri)
        XCTAssertEqual(intent.package, "com.android.vending")
        XCTAssertEqual(intent.action, "android.intent.action.VIEW")
        XCTAssertEqual(intent.data, "market://details?id=com.example.app&referrer=biqli_token%3D" + token)
        XCTAssertEqual(referrer, "biqli_token=" + token)
        // The fallback is today's 302 target, byte for byte, and still carries the token once.
        XCTAssertEqual(fallback, PlayReferrer.url(app: app, token: token))
        XCTAssertEqual(
            fallback.flatMap(PlayReferrer.referrerParameter(fromPlayURL:)).flatMap(PlayReferrer.token), token)
        assertVisibleASCIIWithOneHash(uri)
    }

    func testTokenSurvivesExactlyOnceWhateverItHolds() throws {
        let packages = ["com.example.app", "a_b.c1", "weird pkg;#%=&ü"]
        for package in packages {
            for t in [token, HandoffToken.generate()] + hostile {
                let app = AndroidPlatform(packageName: package, playStoreUrl: nil)
                let uri = PlayStoreIntent.url(app: app, token: t)
                let (intent, referrer, fallback) = try readPlayIntent(uri)
                XCTAssertEqual(intent.package, "com.android.vending", uri)
                XCTAssertEqual(AndroidIntentParser.queryParameter("id", in: intent.data ?? ""), package, uri)
                // Decoded once by Play, the referrer is `biqli_token=<t>`: not double-encoded, not cut.
                XCTAssertEqual(referrer, "biqli_token=" + t, uri)
                XCTAssertEqual(fallback, PlayReferrer.url(app: app, token: t), uri)
                assertVisibleASCIIWithOneHash(uri)
            }
        }
    }

    func testOperatorPlayURLKeepsItsItemsAndReferrerInTheIntent() throws {
        let custom =
            "https://play.google.com/store/apps/details?id=com.example.app&hl=pt-BR&x=a;b"
            + "&referrer=utm_source%3Dig%3Bstory%23top%26utm_term%3Dcaf%C3%A9%20bar%2525&gl=BR"
        let app = AndroidPlatform(packageName: "com.example.app", playStoreUrl: custom)
        XCTAssertNoThrow(try PlayReferrer.validateStoreURL(custom, packageName: "com.example.app"))
        for t in [token] + hostile {
            let uri = PlayStoreIntent.url(app: app, token: t)
            let (intent, referrer, fallback) = try readPlayIntent(uri)
            XCTAssertEqual(AndroidIntentParser.queryParameter("hl", in: intent.data ?? ""), "pt-BR")
            XCTAssertEqual(AndroidIntentParser.queryParameter("x", in: intent.data ?? ""), "a;b")
            XCTAssertEqual(AndroidIntentParser.queryParameter("gl", in: intent.data ?? ""), "BR")
            XCTAssertEqual(referrer, "utm_source=ig;story#top&utm_term=café bar%25&biqli_token=" + t, uri)
            XCTAssertEqual(fallback, PlayReferrer.url(app: app, token: t))
            assertVisibleASCIIWithOneHash(uri)
        }
        // What the SDK then takes: the first biqli_token, exactly the token.
        let (_, referrer, _) = try readPlayIntent(PlayStoreIntent.url(app: app, token: token))
        let pairs = referrer!.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1) }
        XCTAssertEqual(pairs.first { $0[0] == "biqli_token" }.map { String($0[1]) }, token)
    }

    func testPlayIntentIsItsDefinitionForAnyPlayURL() throws {
        // The one-allocation writer against the definition, including a query that needs
        // escapes (an operator item with a lone `%`, which the save-time check lets through).
        let urls = [
            PlayReferrer.url(app: app, token: token),
            "https://play.google.com/store/apps/details?id=com.example.app&x=50%&referrer=biqli_token%3D" + token,
            "https://play.google.com/store/apps/details",
            "https://play.google.com/store/apps/details?",
            "https://play.google.com/store/apps/details?id=a b&u=ü#frag",
        ]
        for url in urls {
            let query = url.firstIndex(of: "?").map { String(url[url.index(after: $0)...]) } ?? ""
            XCTAssertEqual(
                PlayStoreIntent.url(playURL: url),
                "intent://details?" + IntentURI.escapeData(query)
                    + "#Intent;scheme=market;package=com.android.vending;S.browser_fallback_url="
                    + PercentCoding.encode(url) + ";end", url)
            XCTAssertEqual(try readPlayIntent(PlayStoreIntent.url(playURL: url)).2, url)
        }
        let lone = try readPlayIntent(PlayStoreIntent.url(playURL: urls[1]))
        XCTAssertEqual(
            lone.0.data, "market://details?id=com.example.app&x=50%25&referrer=biqli_token%3D" + token)
        XCTAssertEqual(lone.1, "biqli_token=" + token)
    }

    // MARK: (b) the app's own intent

    func testAppIntentCarriesTheShortLinkUnchanged() throws {
        let link = "https://go.example.com/summer?utm_source=ig&q=a%3Bb%23c%25d%26e&biqli_token=" + token
        let play = PlayReferrer.url(app: app, token: token)
        let uri = try AppIntent.url(link: link, packageName: "com.example.app", fallbackURL: play)
        XCTAssertEqual(
            uri,
            "intent://go.example.com/summer?utm_source=ig&q=a%3Bb%23c%25d%26e&biqli_token=" + token
                + "#Intent;scheme=https;package=com.example.app;S.browser_fallback_url=" + PercentCoding.encode(play)
                + ";end")
        let intent = try AndroidIntentParser.parseUri(uri)
        XCTAssertEqual(intent.data, link)
        XCTAssertEqual(intent.package, "com.example.app")
        XCTAssertEqual(intent.extras[IntentURI.browserFallbackKey], play)
        XCTAssertEqual(AndroidIntentParser.queryParameter("q", in: link), "a;b#c%d&e")
        XCTAssertEqual(AndroidIntentParser.queryParameter("biqli_token", in: intent.data!), token)
        assertVisibleASCIIWithOneHash(uri)
    }

    func testAppIntentEscapesWhatALinkMustNotCarryRawAndNothingElse() throws {
        // A raw space, non-ASCII, a lone `%` and a `#` are escaped once; existing escapes are kept.
        let link = "https://go.example.com/k?a=b c&u=ü&p=50%&h=x#y&e=%41"
        let uri = try AppIntent.url(link: link, packageName: "com.example.app", fallbackURL: nil)
        let intent = try AndroidIntentParser.parseUri(uri)
        XCTAssertEqual(intent.data, "https://go.example.com/k?a=b%20c&u=%C3%BC&p=50%25&h=x%23y&e=%41")
        for (key, value) in [("a", "b c"), ("u", "ü"), ("p", "50%"), ("h", "x#y"), ("e", "A")] {
            XCTAssertEqual(AndroidIntentParser.queryParameter(key, in: intent.data!), value, key)
        }
        XCTAssertNil(intent.extras[IntentURI.browserFallbackKey])
        assertVisibleASCIIWithOneHash(uri)
    }

    func testAppIntentFallingBackToThePlayIntentKeepsTheTokenOnce() throws {
        for t in [token] + hostile {
            let playIntent = PlayStoreIntent.url(app: app, token: t)
            let uri = try AppIntent.url(
                link: "https://go.example.com/summer", packageName: "com.example.app", fallbackURL: playIntent)
            let outer = try AndroidIntentParser.parseUri(uri)
            XCTAssertEqual(outer.data, "https://go.example.com/summer")
            let fallback = try XCTUnwrap(outer.extras[IntentURI.browserFallbackKey])
            XCTAssertEqual(fallback, playIntent)
            let (_, referrer, _) = try readPlayIntent(fallback)
            XCTAssertEqual(referrer, "biqli_token=" + t)
            assertVisibleASCIIWithOneHash(uri)
        }
    }

    func testAppIntentNeedsAWebLink() {
        for link in ["myapp://open", "go.example.com/k", "intent://x#Intent;end", ""] {
            XCTAssertThrowsError(try AppIntent.url(link: link, packageName: "com.example.app", fallbackURL: nil)) {
                XCTAssertEqual($0 as? AppIntent.Failure, .notWebURL)
            }
        }
        XCTAssertEqual(
            try AppIntent.url(link: "http://go.example.com/k", packageName: "p", fallbackURL: nil),
            "intent://go.example.com/k#Intent;scheme=http;package=p;end")
    }

    // MARK: The test's reader against AOSP's rules

    func testParserFollowsParseUri() throws {
        // The fragment is the LAST '#'; values are decoded once, '+' kept; keys decoded.
        let intent = try AndroidIntentParser.parseUri(
            "intent://h/p?q=1%232#Intent;scheme=https;package=a.b;S.k%3D=a%2Bb+c%3B;end")
        XCTAssertEqual(intent.data, "https://h/p?q=1%232")
        XCTAssertEqual(intent.package, "a.b")
        XCTAssertEqual(intent.extras, ["k=": "a+b+c;"])
        // A raw '#' in a value moves the fragment: the writer must never leave one.
        XCTAssertThrowsError(try AndroidIntentParser.parseUri("intent://h#Intent;S.k=a#b;end"))
        // getQueryParameter turns '+' into a space (why the referrer never carries a raw '+').
        XCTAssertEqual(AndroidIntentParser.queryParameter("r", in: "market://d?r=a+b%2B"), "a b+")
    }

    func testEscapeDataLeavesAComposedURLAsItIs() {
        for clean in ["//details?id=a&referrer=biqli_token%3Dx", "//h/p?a=%41;b=c'()*!$,", ""] {
            XCTAssertTrue(IntentURI.isClean(clean), clean)
            XCTAssertEqual(IntentURI.escapeData(clean), clean)
        }
        for dirty in ["a b", "a#b", "%", "%4", "%GG", "ü", "a\"b", "a|b", "\u{7F}"] {
            XCTAssertFalse(IntentURI.isClean(dirty), dirty)
            XCTAssertTrue(IntentURI.isClean(IntentURI.escapeData(dirty)), dirty)
        }
    }
}
