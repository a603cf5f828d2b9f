import XCTest

@testable import Edge

/// Which public URLs the official SDKs accept as their API base (issue 23 item 10).
final class SDKBaseURLTests: XCTestCase {
    func testHTTPSOnPort443IsWhatTheSDKsTake() {
        for url in [
            "https://go.example.com", "https://go.example.com:443", "https://edge.example.com/base",
            "https://[2001:db8::1]",
        ] {
            XCTAssertNil(SDKBaseURL.problem(publicURL: url), url)
        }
        XCTAssertEqual(SDKBaseURL.apiBase(publicURL: "https://go.example.com"), "https://go.example.com/api/v1")
    }

    func testOtherPortsPlainHTTPQueriesAndCredentialsAreNot() {
        XCTAssertTrue(SDKBaseURL.problem(publicURL: "https://localhost:8443")?.contains("port is 8443") == true)
        XCTAssertTrue(SDKBaseURL.problem(publicURL: "https://[2001:db8::1]:8443")?.contains("port is 8443") == true)
        XCTAssertTrue(SDKBaseURL.problem(publicURL: "http://go.example.com")?.contains("not HTTPS") == true)
        XCTAssertTrue(SDKBaseURL.problem(publicURL: "https://go.example.com/?a=1")?.contains("query") == true)
        XCTAssertTrue(SDKBaseURL.problem(publicURL: "https://u:p@go.example.com")?.contains("credentials") == true)
    }
}
