import Model
import XCTest

@testable import Visit

/// The web destination's composition: UTM, the visitor's query, the limit, fragments.
final class WebDestinationTests: XCTestCase {
    private let utm = UTMParameters(source: "news letter", medium: "email", campaign: "spring&sale")

    func testNothingToAddKeepsTheURL() {
        XCTAssertEqual(
            WebDestination.compose("https://a.test/p?x=1#f", utm: nil, visitorQuery: nil), "https://a.test/p?x=1#f")
        XCTAssertEqual(WebDestination.compose("https://a.test/", utm: nil, visitorQuery: ""), "https://a.test/")
    }

    func testUTMReplacesTheDestinationsOwnNames() {
        XCTAssertEqual(
            WebDestination.compose("https://a.test/p?utm_source=old&x=1&utm_term=keep", utm: utm, visitorQuery: nil),
            "https://a.test/p?x=1&utm_term=keep&utm_source=news%20letter&utm_medium=email&utm_campaign=spring%26sale")
        XCTAssertEqual(
            WebDestination.compose("https://a.test/", utm: UTMParameters(content: "é"), visitorQuery: nil),
            "https://a.test/?utm_content=%C3%A9")
    }

    func testTheVisitorsQueryPassesAfterTheDestinationsAndUTMsWhichWin() {
        XCTAssertEqual(
            WebDestination.compose(
                "https://a.test/p?x=1", utm: UTMParameters(source: "link"), visitorQuery: "x=2&utm_source=v&y=3&z"),
            "https://a.test/p?x=1&utm_source=link&y=3&z")
    }

    func testTheEdgesOwnParametersNeverPass() {
        XCTAssertEqual(
            WebDestination.compose("https://a.test/", utm: nil, visitorQuery: "bq_id=1&BQ_V=2&biqli_x=3&Biqli_y&ok=1"),
            "https://a.test/?ok=1")
        XCTAssertEqual(
            WebDestination.compose("https://a.test/", utm: nil, visitorQuery: "bq_id=1&=x"), "https://a.test/")
    }

    func testFragmentsStayAfterTheQuery() {
        XCTAssertEqual(
            WebDestination.compose("https://a.test/p?x=1#top", utm: UTMParameters(medium: "m"), visitorQuery: "y=2"),
            "https://a.test/p?x=1&utm_medium=m&y=2#top")
        XCTAssertEqual(
            WebDestination.compose("https://a.test/p#a?b", utm: nil, visitorQuery: "y=2"), "https://a.test/p?y=2#a?b")
    }

    func testPastTheLimitNoneOfTheVisitorsPass() {
        let base = "https://a.test/p"
        let room = WebDestination.maxBytes - base.utf8.count - "?a=".utf8.count
        let fits = "a=" + String(repeating: "x", count: room)
        XCTAssertEqual(
            WebDestination.compose(base, utm: nil, visitorQuery: fits[...]).utf8.count, WebDestination.maxBytes)
        XCTAssertEqual(WebDestination.compose(base, utm: nil, visitorQuery: (fits + "x")[...]), base)
        XCTAssertEqual(
            WebDestination.compose(base, utm: UTMParameters(source: "s"), visitorQuery: ("b=1&" + fits)[...]),
            base + "?utm_source=s")
    }
}
