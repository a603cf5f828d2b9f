import Core
import XCTest

@testable import Console

final class SessionTokenTests: XCTestCase {
    func testNewTokensAre32RandomBytesIn43Characters() throws {
        let tokens = (0..<100).map { _ in SessionToken.random() }
        XCTAssertEqual(Set(tokens.map(\.text)).count, 100)
        for token in tokens {
            XCTAssertEqual(token.text.utf8.count, 43)
            XCTAssertEqual(Base64URL.decode(token.text)?.count, 32)
            XCTAssertEqual(SessionToken(token.text), token)
        }
    }

    func testOnlyWellFormedTextIsAToken() {
        XCTAssertNil(SessionToken(""))
        XCTAssertNil(SessionToken(String(repeating: "a", count: 42)))
        XCTAssertNil(SessionToken(String(repeating: "a", count: 44)))
        XCTAssertNil(SessionToken(String(repeating: "a", count: 42) + "="))
        XCTAssertNil(SessionToken(String(repeating: "a", count: 42) + "+"))
    }

    func testTheStoreKeepsTheHashAndTheFormsAnotherDerivation() {
        let token = SessionToken.random()
        XCTAssertEqual(token.hash, SHA256.hash(token.text))
        XCTAssertNotEqual(token.csrf, token.text)
        XCTAssertNotEqual(Base64URL.decode(token.csrf), token.hash, "the CSRF token is not what the store holds")
        XCTAssertEqual(token.csrf, SessionToken(token.text)?.csrf, "derived, not stored: the same every time")
        XCTAssertNotEqual(token.csrf, SessionToken.random().csrf)
    }

    func testOnlyTheTokensOwnCSRFValueIsAccepted() {
        let token = SessionToken.random()
        XCTAssertTrue(token.accepts(csrf: token.csrf))
        XCTAssertFalse(token.accepts(csrf: nil))
        XCTAssertFalse(token.accepts(csrf: ""))
        XCTAssertFalse(token.accepts(csrf: SessionToken.random().csrf))
        XCTAssertFalse(token.accepts(csrf: String(token.csrf.dropLast())))
        XCTAssertFalse(token.accepts(csrf: token.text))
    }
}
