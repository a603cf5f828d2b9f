import Dispatch
import HTTPMessages
import Model
import Store
import XCTest

@testable import Console

/// Every page as an axe audit and the security policy need it: the headers, one `<h1>`,
/// landmarks, labels, no inline script or style, a CSRF token in every POST form, and
/// every value from the store escaped.
final class PageRenderingTests: XCTestCase {
    var h: ConsoleHarness!

    override func setUpWithError() throws {
        h = try ConsoleHarness()
        // Something on every table: a click and an open of the link.
        let now = h.clock.value
        try h.store.writeAndWait { tx in
            try tx.insertClick(
                Click(
                    id: "biq_clk_1", linkId: ConsoleHarness.linkId, appId: ConsoleHarness.appId,
                    domain: ConsoleHarness.host, at: now, kind: .deepView, platform: .ios,
                    inAppBrowser: "<instagram>", dynamic: [("ref", "<b>")], osVersion: "17.4", country: "DE"))
        }
    }

    override func tearDown() { h?.close() }

    var pages: [String] {
        let link = "/console/links/\(ConsoleHarness.linkId)"
        return [
            "/console/", "/console/links", "/console/links?q=inv", "/console/links/new", link, link + "?days=7",
            link + "/edit", link + "/delete", "/console/apps", "/console/apps/\(ConsoleHarness.appId)",
            "/console/domains", "/console/tags", "/console/nowhere",
        ]
    }

    func testEveryAnswerCarriesThePolicyAndPagesAreNeverStored() {
        let signIn = h.send(.get, "/console/sign-in")
        h.signIn()
        var answers = [("/console/sign-in", signIn)]
        for page in pages { answers.append((page, h.send(.get, page))) }
        answers.append(("qr", h.send(.get, "/console/links/\(ConsoleHarness.linkId)/qr.svg")))
        answers.append(("css", h.send(.get, "/console/assets/console.css")))
        answers.append(
            (
                "redirect",
                h.send(
                    .post, "/console/links/\(ConsoleHarness.linkId)/disable", form: [("csrf", h.csrf(of: "/console/"))])
            ))
        for (page, answer) in answers {
            XCTAssertEqual(answer.headers["content-security-policy"], ConsoleHeaders.contentSecurityPolicy, page)
            XCTAssertEqual(answer.headers["x-content-type-options"], "nosniff", page)
            XCTAssertEqual(answer.headers["referrer-policy"], "same-origin", page)
            if answer.headers["content-type"]?.hasPrefix("text/html") == true {
                XCTAssertEqual(answer.headers["cache-control"], "no-store", page)
            }
        }
        XCTAssertEqual(
            ConsoleHeaders.contentSecurityPolicy,
            "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; "
                + "frame-ancestors 'none'; base-uri 'none'")
    }

    func testEveryPageIsOneDocumentWithLandmarksLabelsAndNoInlineCode() throws {
        h.signIn()
        for page in pages {
            let text = h.text(h.send(.get, page))
            XCTAssertTrue(text.hasPrefix("<!doctype html>\n<html lang=\"en\">"), page)
            XCTAssertEqual(text.components(separatedBy: "<h1").count - 1, 1, page)
            for landmark in ["<header", "<nav", "<main id=\"main\">"] {
                XCTAssertTrue(text.contains(landmark), page + " " + landmark)
            }
            XCTAssertFalse(text.contains(" style="), page)
            XCTAssertNil(text.range(of: " on[a-z]+=", options: .regularExpression), page)
            XCTAssertEqual(
                text.components(separatedBy: "<script").count - 1,
                text.components(separatedBy: "<script src=\"/console/assets/console.").count - 1, page)
            // Every POST form carries the session's token.
            let forms = text.components(separatedBy: "method=\"post\"").dropFirst()
            for form in forms {
                XCTAssertTrue(form.prefix(400).contains("<input type=\"hidden\" name=\"csrf\" value=\""), page)
            }
            // Every visible control has a label.
            for match in text.matches(of: /<(input|select) id="([^"]+)"/) {
                XCTAssertTrue(text.contains("<label for=\"\(match.2)\">"), page + " " + match.2)
            }
            XCTAssertNil(
                text.range(of: "<input (?!id=|type=\"hidden\"|name=\"key\")", options: .regularExpression), page)
        }
    }

    func testValuesFromTheStoreAreEscaped() {
        h.signIn()
        let link = h.text(h.send(.get, "/console/links/\(ConsoleHarness.linkId)"))
        XCTAssertTrue(link.contains("Join &quot;us&quot; &lt;now&gt;"))
        XCTAssertTrue(link.contains("Demo &lt;App&gt;"))
        XCTAssertTrue(link.contains("https://example.com/?a=1&amp;b=2"))
        XCTAssertTrue(link.contains("&lt;instagram&gt;"))
        XCTAssertTrue(link.contains("ref=&lt;b&gt;"))
        XCTAssertFalse(link.contains("<now>"))
        XCTAssertFalse(link.contains("<App>"))
        let apps = h.text(h.send(.get, "/console/apps"))
        XCTAssertTrue(apps.contains("Demo &lt;App&gt;"))
        let search = h.text(h.send(.get, "/console/links?q=%22%3E%3Cscript%3E"))
        XCTAssertTrue(search.contains("value=\"&quot;&gt;&lt;script&gt;\""))
    }

    func testTheLinkPageHasItsChartsTablesAndDays() {
        h.signIn()
        let text = h.text(h.send(.get, "/console/links/\(ConsoleHarness.linkId)?days=7"))
        for id in [
            "short-url", "copy-short-url", "qr", "clicks-chart", "clicks-table", "browsers-table", "countries-table",
            "opens-chart", "opens-table", "recent-clicks", "edit-link", "disable-link", "delete-link",
        ] {
            XCTAssertTrue(text.contains("id=\"\(id)\""), id)
        }
        XCTAssertTrue(text.contains("<code id=\"short-url\">https://go.example.test/invite</code>"))
        XCTAssertTrue(text.contains("<img id=\"qr\" src=\"/console/links/\(ConsoleHarness.linkId)/qr.svg\""))
        // Seven UTC days, newest first, the day in a row header.
        let day = Format.day(h.clock.value / 86_400_000)
        XCTAssertTrue(text.contains("<tr><th scope=\"row\">\(day)</th><td class=\"number\">1</td>"))
        XCTAssertEqual(
            text.components(separatedBy: "<tr><th scope=\"row\">20").count - 1, 21,
            "7 days in 3 tables: clicks, opens, leads and sales")
        XCTAssertTrue(text.contains("<time datetime=\""))
        XCTAssertTrue(text.contains(" UTC</time>"))
        XCTAssertTrue(text.contains("aria-current=\"page\">7 days</a>"))
    }

    func testTheOverviewShowsTheLastCountAndRecountsWhenItIsStale() throws {
        h.signIn()
        // The count made at start may or may not have seen the set-up's click: count again.
        idle()
        h.advance(seconds: 301)
        _ = h.send(.get, "/console/")
        idle()
        let first = h.text(h.send(.get, "/console/"))
        XCTAssertTrue(first.contains("<figure id=\"overview-chart\">"))
        XCTAssertTrue(first.contains("<table id=\"overview-table\">"))
        XCTAssertTrue(first.contains("<table id=\"top-links\">"))
        XCTAssertTrue(first.contains("data-link-id=\"\(ConsoleHarness.linkId)\""))
        XCTAssertTrue(first.contains("id=\"freshness\""))
        let now = h.clock.value
        try h.store.writeAndWait { tx in
            try tx.insertClick(
                Click(
                    id: "biq_clk_late", linkId: "biq_lnk_late", appId: nil, domain: ConsoleHarness.host, at: now,
                    kind: .desktop,
                    platform: .desktop))
        }
        // Not stale yet: the last count, without the new click.
        XCTAssertFalse(h.text(h.send(.get, "/console/")).contains("biq_lnk_late"))
        h.advance(seconds: 301)
        // Stale: shown at once all the same, while the recount runs.
        XCTAssertFalse(h.text(h.send(.get, "/console/")).contains("biq_lnk_late"))
        idle()
        XCTAssertTrue(h.text(h.send(.get, "/console/")).contains("biq_lnk_late (deleted)"))
    }

    /// Waits until the console's background thread has done what was queued.
    private func idle() {
        let done = DispatchSemaphore(value: 0)
        h.console.worker.submit { _ in done.signal() }
        done.wait()
    }

    func testAssetsAreServedHashedForAYearAndByNameWithAnETag() throws {
        let hashed = h.send(.get, ConsoleAssets.stylesheet.url.path)
        XCTAssertEqual(hashed.status, 200)
        XCTAssertEqual(hashed.headers["cache-control"], "public, max-age=31536000, immutable")
        XCTAssertEqual(hashed.headers["content-type"], "text/css; charset=utf-8")
        let plain = h.send(.get, "/console/assets/console.js")
        XCTAssertEqual(plain.headers["cache-control"], "no-cache")
        let etag = try XCTUnwrap(plain.headers["etag"])
        var headers = HTTPHeaders()
        headers.add("if-none-match", etag)
        let again = h.console.handle(
            HTTPRequest(method: .get, target: "/console/assets/console.js", headers: headers),
            client: ConsoleClient(address: "127.0.0.1", secure: false, loop: 0), reader: h.store.reader(loop: 0))
        guard case .response(let notModified) = again else { return XCTFail("an asset answers at once") }
        XCTAssertEqual(notModified.status, 304)
        XCTAssertEqual(h.send(.get, "/console/assets/console.0000.css").status, 404)
    }
}
