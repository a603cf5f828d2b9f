import Core
import Model
import XCTest

@testable import Console
@testable import Management

/// The link form's options (decision 0032) as the API's body, and the API's field paths
/// back to the form's fields.
final class LinkOptionsFormTests: XCTestCase {
    func testTypedRowsBecomeTheAPIsFieldsBlankRowsLeftOut() {
        let form = FormBody(pairs: [
            ("ruleRows", "3"),
            ("rule-0-countries", ""), ("rule-0-url", ""),
            ("rule-1-countries", "de, at ch"), ("rule-1-platforms", "android"), ("rule-1-platforms", "ios"),
            ("rule-1-languages", "pt-BR,de"), ("rule-1-devices", "tablet"), ("rule-1-skipApp", "on"),
            ("rule-1-url", " https://example.de/ "),
            ("rule-2-url", "https://example.com/all"),
            ("variantRows", "2"), ("variant-0-url", "https://a.example/"), ("variant-0-weight", "70"),
            ("variant-1-url", "https://b.example/"), ("variant-1-weight", "thirty"),
            ("utm_source", "news"), ("utm_campaign", "spring"), ("passQuery", "off"),
            ("expiresAt", "2027-01-31T23:59"), ("expiredUrl", "https://example.com/over"),
            ("externalId", "crm-42"), ("tagIds", "biq_tag_2"), ("tagIds", "biq_tag_1"), ("tagIds", "biq_tag_2"),
        ])
        let o = LinkOptionsForm(form)
        XCTAssertEqual(o.rules.count, 2, "the blank first row is dropped: row i is the API's rules[i]")
        XCTAssertEqual(o.blankRules, 1)
        XCTAssertEqual(o.blankVariants, 1, "one blank row below five")
        XCTAssertEqual(
            JSONValue.object(o.createFields),
            .object([
                (
                    "rules",
                    .array([
                        .object([
                            (
                                "if",
                                .object([
                                    ("countries", .array(["DE", "AT", "CH"])),
                                    ("platforms", .array(["ios", "android"])),
                                    ("languages", .array(["pt-BR", "de"])), ("devices", .array(["tablet"])),
                                ])
                            ), ("url", "https://example.de/"), ("skipApp", true),
                        ]),
                        .object([("if", .object([])), ("url", "https://example.com/all")]),
                    ])
                ),
                (
                    "variants",
                    .array([
                        .object([("url", "https://a.example/"), ("weight", 70)]),
                        .object([("url", "https://b.example/"), ("weight", "thirty")]),
                    ])
                ),
                (
                    "utm",
                    .object([
                        ("source", "news"), ("medium", .null), ("campaign", "spring"), ("term", .null),
                        ("content", .null),
                    ])
                ),
                ("passQuery", false), ("expiresAt", "2027-01-31T23:59:00Z"), ("expiredUrl", "https://example.com/over"),
                ("externalId", "crm-42"), ("tagIds", .array(["biq_tag_1", "biq_tag_2"])),
            ]))
        XCTAssertEqual(LinkOptionsForm(FormBody(pairs: [])).createFields.count, 0, "a plain link sends no option")
    }

    func testAddARowKeepsWhatWasTypedAndShowsOneMoreBlankRow() {
        var pairs: [(String, String)] = [
            ("ruleRows", "2"), ("rule-0-countries", "BR"), ("rule-0-url", "https://example.com.br/"),
            ("variantRows", "2"), ("add", "rule"),
        ]
        var o = LinkOptionsForm(FormBody(pairs: pairs))
        XCTAssertEqual(o.rules, [RuleRow(FormBody(pairs: pairs), index: 0)])
        XCTAssertEqual(o.blankRules, 2)
        XCTAssertEqual(o.blankVariants, 2)
        pairs[pairs.count - 1] = ("add", "variant")
        o = LinkOptionsForm(FormBody(pairs: pairs))
        XCTAssertEqual(o.blankRules, 1)
        XCTAssertEqual(o.blankVariants, 3)
        // Never more rows than the API takes.
        var full: [(String, String)] = (0..<20).map { ("rule-\($0)-url", "https://example.com/\($0)") }
        full.append(("add", "rule"))
        XCTAssertEqual(LinkOptionsForm(FormBody(pairs: full)).blankRules, 0)
    }

    func testAnEditSendsOnlyTheOptionsTheFormChanges() {
        let options = LinkOptions(
            rules: [
                LinkRule(
                    conditions: RuleConditions(countries: ["DE"], platforms: [.desktop, .ios]),
                    url: "https://example.de/")
            ],
            variants: [
                LinkVariant(url: "https://a.example/", weight: 50), LinkVariant(url: "https://b.example/", weight: 50),
            ],
            utm: UTMParameters(source: "news"), expiresAt: 1_800_000_000_123, externalId: "crm-1",
            tagIds: ["biq_tag_1"])
        let link = Link(
            id: "biq_lnk_1", domain: "go.example.com", key: "k", url: "https://example.com/", options: options)
        var form = LinkForm(link)
        XCTAssertEqual(form.options.expiresAt, "2027-01-15T08:00", "UTC, milliseconds not shown")
        XCTAssertEqual(form.options.rules[0].platforms, ["ios", "desktop"])
        let plain = form.patch(of: link).map(\.0)
        XCTAssertEqual(plain, ["domain", "key", "url"], "untouched options are neither sent nor judged again")
        form.options.utm[1] = "email"
        form.options.rules = []
        form.options.tagIds = []
        let patch = form.patch(of: link)
        XCTAssertEqual(patch.map(\.0), ["domain", "key", "url", "rules", "utm", "tagIds"])
        XCTAssertEqual(patch.first { $0.0 == "rules" }?.1, .null)
        XCTAssertEqual(patch.first { $0.0 == "tagIds" }?.1, .null)
        XCTAssertEqual(
            patch.first { $0.0 == "utm" }?.1,
            .object([("source", "news"), ("medium", "email"), ("campaign", .null), ("term", .null), ("content", .null)])
        )
    }

    func testTheAPIsFieldPathsComeBackToTheirFields() {
        let cases: [(String, String?)] = [
            ("rules[3].if.countries[0]", "rule-3-countries"), ("rules[0].if.platforms", "rule-0-platforms"),
            ("rules[1].if.languages[2]", "rule-1-languages"), ("rules[2].if.devices[0]", "rule-2-devices"),
            ("rules[4].url", "rule-4-url"), ("rules[4].skipApp", "rule-4-skipApp"), ("rules[5].if", "rule-5"),
            ("rules[5].if.colour", "rule-5"), ("rules[6]", "rule-6"), ("rules", "rules"),
            ("variants", "variants"), ("variants[1].weight", "variant-1-weight"), ("variants[0].url", "variant-0-url"),
            ("variants[2]", "variant-2"), ("utm.term", "utm_term"), ("utm", "utm"), ("utm.other", "utm"),
            ("passQuery", "passQuery"), ("expiresAt", "expiresAt"), ("expiredUrl", "expiredUrl"),
            ("externalId", "externalId"), ("tagIds[3]", "tagIds"), ("tagIds", "tagIds"),
            ("mobile.route", "route"), ("metadata", nil), ("dynamicKeys[0]", nil),
        ]
        for (path, field) in cases { XCTAssertEqual(LinkForm.field(of: path), field, path) }
    }

    func testExpiryIsTypedInUTC() {
        XCTAssertEqual(UTCDateTime.rfc3339("2027-01-31T23:59"), "2027-01-31T23:59:00Z")
        XCTAssertEqual(UTCDateTime.rfc3339("2027-01-31T23:59:30"), "2027-01-31T23:59:30Z")
        XCTAssertEqual(UTCDateTime.rfc3339("2027-01-31 23:59"), "2027-01-31T23:59:00Z")
        for bad in ["", "2027-01-31", "2027-13-01T00:00", "31/01/2027 23:59", "2027-01-31T23:59Z", "2027-01-31T2x:59"] {
            XCTAssertNil(UTCDateTime.rfc3339(bad), bad)
        }
        XCTAssertEqual(UTCDateTime.local(1_800_000_000_000), "2027-01-15T08:00")
        XCTAssertEqual(UTCDateTime.local(1_800_000_007_000), "2027-01-15T08:00:07")
        // Not a datetime-local value: sent as typed, for the API to name.
        var o = LinkOptionsForm()
        o.expiresAt = "tomorrow"
        XCTAssertEqual(o.createFields.first { $0.0 == "expiresAt" }?.1, "tomorrow")
    }
}
