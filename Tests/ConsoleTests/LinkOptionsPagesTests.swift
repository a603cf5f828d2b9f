import Core
import HTTPMessages
import Management
import Model
import Templates
import XCTest

@testable import Console

/// The console's pages for decision 0032 in process: tags, the link form's options
/// through the API's rules, and the A/B test's table.
final class LinkOptionsPagesTests: XCTestCase {
    var h: ConsoleHarness!

    override func setUpWithError() throws { h = try ConsoleHarness() }
    override func tearDown() { h?.close() }

    func testTagsAreMadeRenamedAndDeletedWithTheAPIsMessagesBesideTheFields() throws {
        h.signIn()
        let token = h.csrf(of: "/console/tags")
        XCTAssertEqual(
            h.send(.post, "/console/tags", form: [("csrf", token), ("name", "Spring"), ("color", "green")]).status, 303)
        let tag = try XCTUnwrap(h.store.reader(loop: 0).tags().first)
        XCTAssertEqual(tag.color, .green)
        let taken = h.send(.post, "/console/tags", form: [("csrf", token), ("name", "SPRING"), ("color", "red")])
        XCTAssertEqual(taken.status, 422)
        let page = h.text(taken)
        XCTAssertTrue(
            page.contains("<p class=\"field-error\" id=\"name-error\">name is already the name of tag \(tag.id)"))
        XCTAssertTrue(page.contains("id=\"name\" name=\"name\" type=\"text\" value=\"SPRING\""))
        XCTAssertTrue(page.contains("<option value=\"red\" selected>Red</option>"))
        // The colour is named beside its swatch, never shown alone.
        XCTAssertTrue(page.contains("<span class=\"swatch tag-green\" aria-hidden=\"true\"></span>Green</span>"))
        let bad = h.send(
            .post, "/console/tags/\(tag.id)",
            form: [("csrf", token), ("name-\(tag.id)", "Summer"), ("color-\(tag.id)", "beige")])
        XCTAssertEqual(bad.status, 422)
        XCTAssertTrue(h.text(bad).contains("id=\"color-\(tag.id)-error\">color must be one of gray, red"))
        XCTAssertEqual(
            h.send(
                .post, "/console/tags/\(tag.id)",
                form: [("csrf", token), ("name-\(tag.id)", "Summer"), ("color-\(tag.id)", "blue")]
            ).status,
            303)
        XCTAssertEqual(try h.store.reader(loop: 0).tag(id: tag.id)?.name, "Summer")
        XCTAssertEqual(h.send(.post, "/console/tags/\(tag.id)/delete", form: [("csrf", token)]).status, 303)
        XCTAssertEqual(try h.store.reader(loop: 0).tags(), [])
    }

    func testALinksOptionsAreSavedThroughTheAPIAndItsErrorsComeBackBesideTheirRows() throws {
        h.signIn()
        let token = h.csrf(of: "/console/tags")
        _ = h.send(.post, "/console/tags", form: [("csrf", token), ("name", "Spring"), ("color", "green")])
        let tag = try XCTUnwrap(h.store.reader(loop: 0).tags().first)
        var form: [(String, String)] = [
            ("csrf", token), ("domain", ConsoleHarness.host), ("key", "opts"), ("url", "https://example.com/"),
            ("ruleRows", "3"), ("rule-0-countries", "DE"), ("rule-0-url", "https://example.de/"),
            ("rule-1-countries", "DE, Germany"), ("rule-1-url", "https://example.at/"),
            ("variantRows", "2"), ("variant-0-url", "https://a.example/"), ("variant-0-weight", "60"),
            ("variant-1-url", "https://b.example/"), ("variant-1-weight", "30"), ("tagIds", tag.id),
        ]
        // "Add a rule": the form again with what was typed and one more blank row; nothing saved.
        let added = h.send(.post, "/console/links", form: form + [("add", "rule")])
        XCTAssertEqual(added.status, 200)
        let addedPage = h.text(added)
        XCTAssertTrue(addedPage.contains("name=\"ruleRows\" value=\"4\""))
        XCTAssertTrue(
            addedPage.contains("id=\"rule-1-countries\" name=\"rule-1-countries\" type=\"text\" value=\"DE, Germany\""))
        XCTAssertTrue(addedPage.contains("id=\"rule-3-url\""))
        XCTAssertTrue(
            addedPage.contains("id=\"tag-\(tag.id)\" type=\"checkbox\" name=\"tagIds\" value=\"\(tag.id)\" checked"))
        XCTAssertNil(try h.store.reader(loop: 0).link(host: ConsoleHarness.host, key: "opts"))

        let refused = h.send(.post, "/console/links", form: form)
        XCTAssertEqual(refused.status, 422)
        let page = h.text(refused)
        XCTAssertTrue(
            page.contains(
                "<p class=\"field-error\" id=\"rule-1-countries-error\">rules[1].if.countries[1] must be an ISO 3166-1")
        )
        XCTAssertTrue(
            page.contains(
                "id=\"rule-1-countries\" name=\"rule-1-countries\" type=\"text\" value=\"DE, Germany\" autocomplete=\"off\" spellcheck=\"false\" aria-invalid=\"true\" aria-describedby=\"rule-1-countries-error\""
            ))
        XCTAssertTrue(page.contains("<p class=\"field-error\" id=\"variants-error\">variants weights must sum to 100"))
        XCTAssertFalse(page.contains("id=\"rule-0-countries-error\""))

        form[7] = ("rule-1-countries", "AT")
        form[13] = ("variant-1-weight", "40")
        let created = h.send(
            .post, "/console/links", form: form + [("utm_source", "news"), ("expiresAt", "2030-01-01T00:00")])
        XCTAssertEqual(created.status, 303, h.text(created))
        let link = try XCTUnwrap(h.store.reader(loop: 0).link(host: ConsoleHarness.host, key: "opts"))
        let o = try XCTUnwrap(link.options)
        XCTAssertEqual(o.rules.map(\.url), ["https://example.de/", "https://example.at/"])
        XCTAssertEqual(o.variants.map(\.weight), [60, 40])
        XCTAssertEqual(o.utm?.source, "news")
        XCTAssertEqual(o.expiresAt, Timestamp.parse("2030-01-01T00:00:00Z"))
        XCTAssertEqual(o.tagIds, [tag.id])

        // The list shows the tag and filters by it; the link's page names it and has the test's table.
        let list = h.text(h.send(.get, "/console/links?tagId=\(tag.id)"))
        XCTAssertTrue(list.contains("<span class=\"tag tag-green\">Spring</span>"))
        XCTAssertTrue(list.contains("data-link-id=\"\(link.id)\""))
        XCTAssertFalse(list.contains("data-link-id=\"\(ConsoleHarness.linkId)\""))
        let linkPage = h.text(h.send(.get, "/console/links/\(link.id)"))
        XCTAssertTrue(linkPage.contains("id=\"ab-table\""))
        XCTAssertTrue(linkPage.contains("<th scope=\"row\">A (control)</th><td class=\"url\">https://a.example/</td>"))
        XCTAssertTrue(linkPage.contains("id=\"ab-assumptions\""))

        // An edit that changes only the key keeps every option.
        let edit = h.send(
            .post, "/console/links/\(link.id)",
            form: [("csrf", token)]
                + editForm(h.text(h.send(.get, "/console/links/\(link.id)/edit"))).map {
                    $0.0 == "key" ? ("key", "opts2") : $0
                })
        XCTAssertEqual(edit.status, 303, h.text(edit))
        let edited = try XCTUnwrap(h.store.reader(loop: 0).link(id: link.id))
        XCTAssertEqual(edited.key, "opts2")
        XCTAssertEqual(edited.options, link.options)
    }

    func testTheABTableRendersEachArmAndTheVerdict() {
        let html = text(
            ABTestTable.render(
                variants: [
                    LinkVariant(url: "https://a.example/", weight: 50),
                    LinkVariant(url: "https://b.example/", weight: 50),
                ],
                totals: [
                    VariantTotals(arm: 0, clicks: 1000, leads: 200, sales: 20, revenue: ["usd": 199_900]),
                    VariantTotals(arm: 1, clicks: 1000, leads: 250, sales: 31, revenue: ["usd": 310_000]),
                ], days: 30))
        XCTAssertTrue(html.contains("<tr id=\"ab-arm-0\"><th scope=\"row\">A (control)</th>"))
        XCTAssertTrue(
            html.contains(
                "<td class=\"number\">1,999.00 USD</td><td class=\"number\">20.0\u{A0}%</td><td class=\"verdict\">Control</td>"
            ))
        XCTAssertTrue(
            html.contains(
                "<td class=\"number\">25.0\u{A0}%</td><td class=\"verdict\">B converts better, 99.2\u{A0}% confidence</td>"
            ))
        XCTAssertTrue(html.contains("two-proportion z-test"))
        XCTAssertEqual(text(ABTestTable.render(variants: [], totals: [], days: 30)), "")
    }

    private func text(_ html: HTML) -> String { String(decoding: html.bytes, as: UTF8.self) }

    /// The named values of a page's link form (text fields, checked boxes, selected options).
    private func editForm(_ page: String) -> [(String, String)] {
        var out: [(String, String)] = []
        for m in page.matches(
            of:
                /<input id="[^"]*" (?:name="([^"]+)" type="(?:text|url|number|datetime-local)" value="([^"]*)"|type="checkbox" name="([^"]+)" value="([^"]*)" checked)/
        ) {
            if let name = m.1, let value = m.2 { out.append((String(name), String(value))) }
            if let name = m.3, let value = m.4 { out.append((String(name), String(value))) }
        }
        for m in page.matches(of: /<input type="hidden" name="((?:rule|variant)Rows)" value="([^"]*)"/) {
            out.append((String(m.1), String(m.2)))
        }
        for m in page.matches(of: /<select id="([^"]+)" name="[^"]+"[^>]*>(.*?)<\/select>/) {
            if let selected = m.2.firstMatch(of: /<option value="([^"]*)" selected>/) {
                out.append((String(m.1), String(selected.1)))
            }
        }
        return out.map { ($0.0, $0.1.replacingOccurrences(of: "&amp;", with: "&")) }
    }
}
