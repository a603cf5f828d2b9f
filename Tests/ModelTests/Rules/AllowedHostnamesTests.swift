import XCTest

@testable import Model

/// The hostnames a workspace allows to call track/click, and the match of a browser's
/// `Origin` against them (decision 0027).
final class AllowedHostnamesTests: XCTestCase {
    func testPatternsThatAreAllowed() {
        for p in [
            "shop.example.com", "*.example.com", "*.a.b.example.co.uk", "localhost", "xn--bcher-kva.example",
            "a-b.example.com", String(repeating: "a", count: 63) + ".example.com",
        ] {
            XCTAssertNil(AllowedHostnames.problem(p), p)
        }
    }

    func testPatternsThatAreRefused() {
        let long = (0..<4).map { _ in String(repeating: "a", count: 63) }.joined(separator: ".") + ".example"
        for p in [
            "", "Shop.example.com", "shop", "*.com", "*", "*.", "**.example.com", "*example.com", "a.*.example.com",
            "10.0.0.1", "*.10.0.0.1", "example.123", "-a.example.com", "a-.example.com", "a..example.com",
            "shop.example.com.", "shop.example.com:443", "https://shop.example.com", "shop_1.example.com",
            "bücher.example", "[::1]", String(repeating: "a", count: 64) + ".example.com", long, "*." + long,
        ] {
            XCTAssertNotNil(AllowedHostnames.problem(p), p)
        }
    }

    func testAListIsLimitedInCountAndRepeats() {
        XCTAssertTrue(AllowedHostnames.problems((0..<50).map { "h\($0).example.com" }).isEmpty)
        let tooMany = AllowedHostnames.problems((0..<51).map { "h\($0).example.com" })
        XCTAssertEqual(tooMany.count, 1)
        XCTAssertNil(tooMany[0].index)
        let problems = AllowedHostnames.problems(["a.example.com", "B.example.com", "a.example.com"])
        XCTAssertEqual(problems.map(\.index), [1, 2])
        XCTAssertEqual(problems[1].rule, "is listed twice")
    }

    func testExactNamesMatchThemselvesAndWildcardsWhatLiesUnder() {
        let allowed = ["shop.example.com", "*.example.org", "localhost"]
        for host in ["shop.example.com", "a.example.org", "a.b.example.org", "localhost"] {
            XCTAssertTrue(AllowedHostnames.allows(host, allowed), host)
        }
        for host in [
            "example.org", "xexample.org", "a.shop.example.com", "example.com", "shop.example.com.evil.test",
            "evilexample.org", "", "org",
        ] {
            XCTAssertFalse(AllowedHostnames.allows(host, allowed), host)
        }
        XCTAssertFalse(AllowedHostnames.allows("shop.example.com", []))
    }

    func testTheHostOfAnOrigin() {
        XCTAssertEqual(AllowedHostnames.originHost("https://shop.example.com"), "shop.example.com")
        XCTAssertEqual(AllowedHostnames.originHost("http://shop.example.com:8080"), "shop.example.com")
        XCTAssertEqual(AllowedHostnames.originHost("HTTPS://Shop.Example.com"), "shop.example.com")
        XCTAssertEqual(AllowedHostnames.originHost("http://localhost:3000"), "localhost")
        for origin in [
            "null", "", "shop.example.com", "ftp://shop.example.com", "https://shop.example.com/",
            "https://shop.example.com/path", "https://user@shop.example.com", "https://shop.example.com:",
            "https://shop.example.com:123456", "https://shop.example.com:80a", "https://10.0.0.1", "https://[::1]:443",
            "https://", "chrome-extension://abcdef", "https://shop.example.com?x",
        ] {
            XCTAssertNil(AllowedHostnames.originHost(origin), origin)
        }
    }
}
