import XCTest

@testable import Model

/// The names the test clock may run on: those no one can own (RFC 2606, RFC 6761).
final class TestHostnamesTests: XCTestCase {
    func testTheSpecialUseTopLevelDomainsAndEverythingUnderThemAreReserved() {
        for name in ["go.example.test", "a.b.example", "x.invalid", "localhost", "app.localhost", "test"] {
            XCTAssertTrue(TestHostnames.isReserved(name), name)
        }
    }

    func testTheExampleSecondLevelDomainsAreReservedInAnyCaseWithATrailingDot() {
        for name in ["example.com", "WWW.Example.COM", "links.example.net.", "example.org"] {
            XCTAssertTrue(TestHostnames.isReserved(name), name)
        }
    }

    func testNamesAnyoneCouldOwnAreNot() {
        for name in [
            "shop.com", "example.co", "myexample.com", "example.com.evil.io", "test.com", "go.testing",
            "localhost.io", "examples.org", "", ".", "a..test", ".test",
        ] {
            XCTAssertFalse(TestHostnames.isReserved(name), name)
        }
    }
}
