import XCTest

@testable import Templates

final class SafeURLTests: XCTestCase {
    func testAcceptsAbsoluteHTTPSURLs() {
        let accepted = [
            "https://example.com",
            "https://example.com/",
            "https://cdn.example.com:8443/a/b.png?x=1&y=%20#frag",
            "https://192.0.2.1/x",
            "https://[2001:db8::1]:443/x",
            "https://apps.apple.com/app/id1234567890",
        ]
        for text in accepted {
            XCTAssertEqual(SafeURL(text)?.absoluteString, text, text)
        }
    }

    func testNormalisesSchemeAndHostCase() {
        let url = SafeURL("HTTPS://CDN.Example.COM/Path/IMG.png")
        XCTAssertEqual(url?.absoluteString, "https://cdn.example.com/Path/IMG.png")
        XCTAssertEqual(url?.host, "cdn.example.com")
    }

    func testRejectsOtherSchemesAndRelativeURLs() {
        let rejected = [
            "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
            "http://example.com/", "ftp://example.com/", "//example.com/x", "/relative", "relative",
            "https:example.com", "https:/example.com", "https://", "", " https://example.com",
            "vbscript:msgbox", "https\u{0}://example.com",
        ]
        for text in rejected {
            XCTAssertNil(SafeURL(text), text)
        }
    }

    func testRejectsCredentials() {
        for text in ["https://user:pass@example.com/", "https://user@example.com", "https://example.com@evil.com/"] {
            XCTAssertNil(SafeURL(text), text)
        }
    }

    func testRejectsCharactersThatCouldBreakOutOrConfuseParsers() {
        let rejected = [
            "https://x\" onerror=\"alert(1)", "https://x.com/\" onerror=\"alert(1)", "https://x.com/'a",
            "https://x.com/<script>", "https://x.com/a b", "https://x.com/a\tb", "https://x.com/a\nb",
            "https://x.com\\@evil.com/", "https://x.com/a\\b", "https://x.com/`", "https://x.com/%zz",
            "https://x.com/%4", "https://x.com/\u{7F}",
        ]
        for text in rejected {
            XCTAssertNil(SafeURL(text), text)
        }
    }

    func testRejectsMalformedHostsAndPorts() {
        let rejected = [
            "https://exa mple.com/", "https://-x.com/", "https://x-.com/", "https://x..com/", "https://.x.com/",
            "https://x.com:0/", "https://x.com:65536/", "https://x.com:abc/", "https://x.com:/",
            "https://bücher.example/", "https://[zz::1]/", "https://[::1/", "https://x_y.com/",
            "https://" + String(repeating: "a", count: 64) + ".com/",
        ]
        for text in rejected {
            XCTAssertNil(SafeURL(text), text)
        }
    }

    func testAcceptsOnlyRealIPv6Hosts() {
        for host in [
            "::1", "::", "1::", "2001:db8::1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::ffff:192.0.2.1",
            "1:2:3:4:5:6:1.2.3.4", "FE80::A",
        ] {
            XCTAssertNotNil(SafeURL("https://[\(host)]/"), host)
        }
        // Hex digits or colons alone are not an address: URL parsers (browsers, Python's
        // urlsplit) refuse these, so the edge must not store them.
        for host in [
            "be47", "1:2", ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "12345::",
            "::1.2.3", "::1.2.3.256", "::01.2.3.4", "1.2.3.4::", "::g", ":1::", "1:2:3:4:5:6:7:1.2.3.4",
        ] {
            XCTAssertNil(SafeURL("https://[\(host)]/"), host)
        }
    }

    func testRejectsOverlongURLs() {
        let long = "https://example.com/" + String(repeating: "a", count: SafeURL.maxLength)
        XCTAssertNil(SafeURL(long))
        let fits = "https://example.com/" + String(repeating: "a", count: SafeURL.maxLength - 20)
        XCTAssertNotNil(SafeURL(fits))
    }

    func testPercentEncodesNonASCIIInPathAndQuery() {
        XCTAssertEqual(
            SafeURL("https://example.com/café?q=日")?.absoluteString, "https://example.com/caf%C3%A9?q=%E6%97%A5")
    }

    func testHandoffURLHasTheExactShapeTheSDKsParse() {
        let url = SafeURL.handoff(domain: "Go.Example.com", token: Fixtures.token)
        XCTAssertEqual(url?.absoluteString, Fixtures.handoffURL)
    }

    func testHandoffURLRefusesMalformedTokensAndDomains() {
        let good = Fixtures.token
        let badTokens = [
            "", "bqmh_", String(good.dropLast()), good + "A", "bqmx_" + good.dropFirst(5),
            "bqmh_" + String(repeating: "+", count: 43), "bqmh_" + String(repeating: "=", count: 43),
            "bqmh_" + String(repeating: "é", count: 43),
        ]
        for token in badTokens {
            XCTAssertNil(SafeURL.handoff(domain: "go.example.com", token: token), token)
        }
        for domain in ["", "go.example.com/evil", "user@go.example.com", "go.example.com:443", "go example.com"] {
            XCTAssertNil(SafeURL.handoff(domain: domain, token: good), domain)
        }
    }

    func testStoreTargetsOnlyTakeAppleStoreURLs() {
        XCTAssertEqual(StoreTarget.appStore(id: "1234567890")?.url.absoluteString, Fixtures.appStoreURL)
        XCTAssertNil(StoreTarget.appStore(id: "12a4"))
        XCTAssertNil(StoreTarget.appStore(id: ""))
        XCTAssertNil(StoreTarget.appStore(id: "1/../evil"))
        XCTAssertEqual(
            StoreTarget.testFlight(url: "https://testflight.apple.com/join/AbC123")?.url.absoluteString,
            "https://testflight.apple.com/join/AbC123")
        for url in [
            "http://testflight.apple.com/join/AbC123", "https://evil.com/join/AbC123",
            "https://testflight.apple.com.evil.com/join/AbC123", "https://testflight.apple.com/join/",
            "https://testflight.apple.com/join/AbC?x=1", "https://testflight.apple.com/other/AbC123",
        ] {
            XCTAssertNil(StoreTarget.testFlight(url: url), url)
        }
    }
}
