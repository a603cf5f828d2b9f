import HTTPMessages
import XCTest

@testable import Console

final class ConsoleCookiesTests: XCTestCase {
    func testTheCookieIsFoundAmongOthersAndFields() {
        let headers = HTTPHeaders([
            ("cookie", "theme=dark; biqli_console_form=f1"), ("cookie", "biqli_console=abc; biqli_console=second"),
        ])
        XCTAssertEqual(ConsoleCookies.value("biqli_console", in: headers), "abc")
        XCTAssertEqual(ConsoleCookies.value("biqli_console_form", in: headers), "f1")
        XCTAssertNil(ConsoleCookies.value("biqli", in: headers))
        XCTAssertNil(ConsoleCookies.value("biqli_console", in: HTTPHeaders()))
    }

    func testTheSessionCookieIsHttpOnlyStrictOnTheConsolesPathAndSecureOnHTTPS() {
        XCTAssertEqual(
            ConsoleCookies.set("biqli_console", "t", maxAge: 43_200, secure: false),
            "biqli_console=t; Max-Age=43200; Path=/console/; HttpOnly; SameSite=Strict")
        XCTAssertEqual(
            ConsoleCookies.set("biqli_console", "t", maxAge: 43_200, secure: true),
            "biqli_console=t; Max-Age=43200; Path=/console/; HttpOnly; SameSite=Strict; Secure")
        XCTAssertEqual(
            ConsoleCookies.clear("biqli_console", secure: false),
            "biqli_console=; Max-Age=0; Path=/console/; HttpOnly; SameSite=Strict")
    }
}
