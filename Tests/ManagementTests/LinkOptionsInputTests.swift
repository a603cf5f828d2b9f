import Core
import Model
import XCTest

@testable import Management

/// The link fields of issue 35 as requests state them (decision 0032): every field
/// decodes and round-trips, each broken rule names its field, and an update validates
/// only the fields it changes.
final class LinkOptionsInputTests: XCTestCase {
    private func decode(_ json: String, existing: Link? = nil, keepUnchanged: Bool = false) throws -> Link {
        try LinkInput.decode(
            try JSONParser.parse(Array(json.utf8)), id: "biq_lnk_A", existing: existing, now: 1,
            keepUnchanged: keepUnchanged)
    }

    private func fields(_ json: String) -> [String] {
        do {
            _ = try decode(json)
            return []
        } catch let error as ManagementError {
            guard case .invalid(let problems) = error else { return ["not invalid: \(error)"] }
            return problems.map(\.field)
        } catch {
            return ["not a ManagementError: \(error)"]
        }
    }

    private let base = #""domain": "go.example.com", "key": "k", "url": "https://x.com/""#

    func testEveryFieldDecodesAndRoundTrips() throws {
        let link = try decode(
            """
            {\(base), "rules": [{"if": {"countries": ["de", "AT"], "platforms": ["ios"], "languages": ["pt-BR"],
              "devices": ["tablet", "phone"]}, "url": "https://x.com/de", "skipApp": true}, {"if": {}, "url": "https://x.com/all"}],
             "variants": [{"url": "https://a.com/", "weight": 25}, {"url": "https://b.com/", "weight": 75}],
             "utm": {"source": "news", "campaign": "spring"}, "passQuery": true,
             "expiresAt": "2026-06-01T00:00:00Z", "expiredUrl": "https://x.com/over",
             "tagIds": ["biq_tag_B", "biq_tag_A", "biq_tag_B"], "externalId": "crm 42"}
            """)
        let o = try XCTUnwrap(link.options)
        XCTAssertEqual(
            o.rules,
            [
                LinkRule(
                    conditions: RuleConditions(
                        countries: ["DE", "AT"], platforms: [.ios], languages: ["pt-BR"], devices: [.tablet, .phone]),
                    url: "https://x.com/de", skipApp: true),
                LinkRule(conditions: RuleConditions(), url: "https://x.com/all"),
            ])
        XCTAssertEqual(o.variants.map(\.weight), [25, 75])
        XCTAssertEqual(o.utm, UTMParameters(source: "news", campaign: "spring"))
        XCTAssertEqual(o.passQuery, true)
        XCTAssertEqual(o.expiresAt, 1_780_272_000_000)
        XCTAssertEqual(o.expiredUrl, "https://x.com/over")
        XCTAssertEqual(o.tagIds, ["biq_tag_A", "biq_tag_B"])
        XCTAssertEqual(o.externalId, "crm 42")
        XCTAssertEqual(try LinkInput.decode(LinkInput.writable(link), id: link.id, existing: link, now: 1), link)
    }

    func testALinkWithoutTheFieldsHasNoOptionsAndAnswersEmptyValues() throws {
        let link = try decode("{\(base), \"rules\": null, \"variants\": [], \"utm\": {\"source\": null}}")
        XCTAssertNil(link.options)
        let json = LinkInput.writable(link)
        XCTAssertEqual(json["rules"], .array([]))
        XCTAssertEqual(json["utm"], .null)
        XCTAssertEqual(json["passQuery"], .null)
        XCTAssertEqual(json["externalId"], .null)
    }

    func testEachBrokenRuleNamesItsField() {
        XCTAssertEqual(fields("{\(base), \"rules\": [{\"url\": \"https://x.com/\"}]}"), ["rules[0].if"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {\"countries\": []}, \"url\": \"https://x.com/\"}]}"),
            ["rules[0].if.countries"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {\"countries\": [\"DEU\"]}, \"url\": \"https://x.com/\"}]}"),
            ["rules[0].if.countries[0]"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {\"platforms\": [\"windows\"]}, \"url\": \"https://x.com/\"}]}"),
            ["rules[0].if.platforms[0]"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {\"languages\": [\"pt_BR\"]}, \"url\": \"https://x.com/\"}]}"),
            ["rules[0].if.languages[0]"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {\"moon\": [\"full\"]}, \"url\": \"https://x.com/\"}]}"),
            ["rules[0].if.moon"])
        XCTAssertEqual(
            fields("{\(base), \"rules\": [{\"if\": {}, \"url\": \"javascript:x\"}]}"), ["rules[0].url"])
        let tooMany = Array(repeating: "{\"if\": {}, \"url\": \"https://x.com/\"}", count: 21).joined(separator: ",")
        XCTAssertEqual(fields("{\(base), \"rules\": [\(tooMany)]}"), ["rules"])
        XCTAssertEqual(
            fields("{\(base), \"variants\": [{\"url\": \"https://a.com/\", \"weight\": 100}]}"), ["variants"])
        XCTAssertEqual(
            fields(
                "{\(base), \"variants\": [{\"url\": \"https://a.com/\", \"weight\": 50}, {\"url\": \"https://b.com/\", \"weight\": 49}]}"
            ), ["variants"])
        XCTAssertEqual(
            fields(
                "{\(base), \"variants\": [{\"url\": \"https://a.com/\", \"weight\": 0}, {\"url\": \"https://b.com/\", \"weight\": 100}]}"
            ), ["variants[0].weight"])
        XCTAssertEqual(
            fields("{\(base), \"utm\": {\"source\": \"\(String(repeating: "s", count: 257))\"}}"), ["utm.source"])
        XCTAssertEqual(fields("{\(base), \"utm\": {\"medium\": 1, \"gclid\": \"x\"}}"), ["utm.medium", "utm.gclid"])
        XCTAssertEqual(fields("{\(base), \"passQuery\": \"yes\"}"), ["passQuery"])
        XCTAssertEqual(fields("{\(base), \"expiresAt\": \"tomorrow\"}"), ["expiresAt"])
        XCTAssertEqual(fields("{\(base), \"expiredUrl\": \"https://x.com/over\"}"), ["expiredUrl"])
        XCTAssertEqual(fields("{\(base), \"tagIds\": [\"biq_lnk_A\"]}"), ["tagIds[0]"])
        let tags = (0..<21).map { "\"biq_tag_\($0)\"" }.joined(separator: ",")
        XCTAssertEqual(fields("{\(base), \"tagIds\": [\(tags)]}"), ["tagIds"])
        for bad in ["", " lead", "trail ", "tab\t", "é", String(repeating: "x", count: 256)] {
            XCTAssertEqual(
                fields("{\(base), \"externalId\": \(JSONWriter().string(.string(bad)))}"), ["externalId"], bad)
        }
        XCTAssertEqual(fields("{\(base), \"externalId\": \"\(String(repeating: "x", count: 255))\"}"), [])
    }

    func testAnUpdateValidatesOnlyWhatItChanges() throws {
        // Stored under looser rules: a rule whose list is empty, variants that do not sum to 100.
        let loose = Link(
            id: "biq_lnk_A", domain: "go.example.com", key: "k", url: "https://x.com/",
            options: LinkOptions(
                rules: [LinkRule(conditions: RuleConditions(countries: []), url: "https://x.com/de")],
                variants: [
                    LinkVariant(url: "https://a.com/", weight: 10), LinkVariant(url: "https://b.com/", weight: 10),
                ]))
        let merged = MergePatch.apply(
            [("enabled", .bool(false)), ("utm", .object([("source", .string("s"))]))], to: LinkInput.writable(loose),
            nested: LinkInput.nested)
        let updated = try LinkInput.decode(merged, id: loose.id, existing: loose, now: 2, keepUnchanged: true)
        XCTAssertEqual(updated.options?.rules, loose.options?.rules)
        XCTAssertEqual(updated.options?.variants, loose.options?.variants)
        XCTAssertEqual(updated.options?.utm, UTMParameters(source: "s"))
        XCTAssertFalse(updated.enabled)
        // Changing the variants validates them.
        let changed = MergePatch.apply(
            [("variants", .array([.object([("url", .string("https://a.com/")), ("weight", .int(10))])]))],
            to: LinkInput.writable(loose), nested: LinkInput.nested)
        XCTAssertThrowsError(try LinkInput.decode(changed, id: loose.id, existing: loose, now: 2, keepUnchanged: true))
    }
}
