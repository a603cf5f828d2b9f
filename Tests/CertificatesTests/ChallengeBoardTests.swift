import XCTest

@testable import Certificates

/// The HTTP-01 answers: only for the token's own host, gone once withdrawn.
final class ChallengeBoardTests: XCTestCase {
    func testAnAnswerIsGivenForItsTokenAndHostOnly() {
        let board = ChallengeBoard()
        board.set(token: "tok", hostname: "Go.Example.test", keyAuthorization: "tok.thumb")
        XCTAssertEqual(board.answer(token: "tok", host: "go.example.test"), "tok.thumb")
        XCTAssertEqual(board.answer(token: "tok", host: "GO.EXAMPLE.TEST"), "tok.thumb")
        XCTAssertNil(board.answer(token: "tok", host: "other.example.test"), "another host of the edge")
        XCTAssertNil(board.answer(token: "tok2", host: "go.example.test"))
        board.remove(token: "tok")
        XCTAssertNil(board.answer(token: "tok", host: "go.example.test"))
        XCTAssertEqual(board.tokens, [])
    }
}
