import XCTest

@testable import Model

/// A visit's referring site: the Referer's host alone, normalised, or nothing.
final class ReferringSiteTests: XCTestCase {
    func testTheHostIsKeptAndNothingElse() {
        let cases: [(String, String)] = [
            ("https://t.co/", "t.co"),
            ("https://www.Example.COM/path?q=secret#frag", "example.com"),
            ("http://news.example.org:8080/a", "news.example.org"),
            ("https://user:pass@l.instagram.com/?u=x", "l.instagram.com"),
            ("HTTPS://WWW.FACEBOOK.COM", "facebook.com"),
            ("https://example.com./", "example.com"),
            ("https://[2001:db8::1]:443/x", "[2001:db8::1]"),
            ("https://[2001:DB8::192.0.2.1]/", "[2001:db8::192.0.2.1]"),
            ("https://192.0.2.7/", "192.0.2.7"),
            ("https://xn--bcher-kva.example/", "xn--bcher-kva.example"),
        ]
        for (header, site) in cases { XCTAssertEqual(ReferringSite.host(header), site, header) }
    }

    func testAnythingElseIsNoSite() {
        let long = "https://" + String(repeating: "a.", count: 127) + "com/"
        for header in [
            nil, "", "android-app://com.google.android.gm/", "about:blank", "https:example.com", "//example.com/",
            "https://", "https:///path", "https://exa mple.com/", "https://bücher.example/", "https://a..b/",
            "https://.example.com/", "https://example.com:80a/", "https://[::1/", "https://[]/", "https://[zz]/",
            "https://exa\u{0}mple.com/", long, "https://localhost/", "https://www./", "https://www.com./",
            "https://other/", "https://none/", "https://[\u{FF11}::1]/",
            "https://[" + String(repeating: "1", count: 46) + "]/",
        ] {
            XCTAssertNil(ReferringSite.host(header), header ?? "nil")
        }
        XCTAssertEqual(ReferringSite.host("https://" + String(repeating: "a", count: 249) + ".com/")?.count, 253)
    }
}
