import Model
import XCTest

@testable import Visit

/// A link's options prepared once for all its visits: the same destinations, fingerprint
/// and cookies as computing them per visit, and a cache that follows the link's edits.
final class PreparedOptionsTests: XCTestCase {
    typealias F = VisitPlanFixtures

    private let utm = UTMParameters(source: "news letter", campaign: "spring&sale")
    private let visitorQueries: [Substring?] = [
        nil, "", "y=2", "x=9&y=2", "bq_id=1&ok=1", "utm_source=v&z", "&&a=1&&", "=x&b", "a=é%20",
    ]

    func testAPreparedDestinationAnswersWhatComposingItAfreshDoes() {
        let urls = [
            "https://a.test/", "https://a.test/p?x=1", "https://a.test/p?", "https://a.test/p?utm_source=old#f",
            "https://a.test/p#a?b", "https://a.test/p?x=1&&y=#top",
        ]
        for url in urls {
            for utm in [nil, utm, UTMParameters()] {
                let prepared = PreparedDestination(url, utm: utm)
                for query in visitorQueries {
                    XCTAssertEqual(
                        prepared.with(visitorQuery: query),
                        WebDestination.compose(url, utm: utm, visitorQuery: query),
                        "\(url) \(String(describing: query))")
                }
            }
        }
        // Spelled out once, so that the comparison above is not of a thing with itself.
        XCTAssertEqual(
            PreparedDestination("https://a.test/p?x=1#f", utm: utm).with(visitorQuery: "x=2&bq_v=1&y=3"),
            "https://a.test/p?x=1&utm_source=news%20letter&utm_campaign=spring%26sale&y=3#f")
        XCTAssertEqual(
            PreparedDestination("https://a.test/p?", utm: nil).with(visitorQuery: "y=2"), "https://a.test/p?y=2")
        XCTAssertEqual(PreparedDestination("https://a.test/p?", utm: nil).with(visitorQuery: nil), "https://a.test/p?")
    }

    func testAPreparedDestinationDropsTheVisitorsQueryPastTheLimit() {
        let base = "https://a.test/p#frag"
        let prepared = PreparedDestination(base, utm: UTMParameters(source: "s"))
        let room = WebDestination.maxBytes - prepared.url.utf8.count - "&a=".utf8.count
        let fits = "a=" + String(repeating: "x", count: room)
        XCTAssertEqual(prepared.with(visitorQuery: fits[...]).utf8.count, WebDestination.maxBytes)
        XCTAssertEqual(prepared.with(visitorQuery: (fits + "x")[...]), "https://a.test/p?utm_source=s#frag")
    }

    func testPreparedOptionsHoldEachDestinationTheFingerprintAndTheCookies() {
        let variants = [
            LinkVariant(url: "https://b.test/?v=1", weight: 30), LinkVariant(url: "https://c.test/", weight: 70),
        ]
        let options = LinkOptions(
            rules: [LinkRule(conditions: RuleConditions(languages: ["pt"]), url: "https://r.test/")],
            variants: variants,
            utm: utm)
        var link = F.link(mobile: false)
        link.options = options
        let prepared = PreparedOptions(link: link, options: options)
        XCTAssertEqual(prepared.destination(.link).url, WebDestination.compose(link.url, utm: utm, visitorQuery: nil))
        XCTAssertEqual(
            prepared.destination(.rule(0)).url, "https://r.test/?utm_source=news%20letter&utm_campaign=spring%26sale")
        XCTAssertEqual(
            prepared.destination(.variant(0)).url,
            "https://b.test/?v=1&utm_source=news%20letter&utm_campaign=spring%26sale")
        XCTAssertEqual(prepared.fingerprint, VariantDraw.fingerprint(variants))
        XCTAssertTrue(prepared.namesLanguages)
        XCTAssertFalse(prepared.namesCountries)
        for arm in 0..<2 {
            for secure in [false, true] {
                XCTAssertEqual(
                    prepared.setCookie(arm: arm, secure: secure),
                    VariantCookie.setCookie(
                        arm: arm, fingerprint: prepared.fingerprint, key: link.key[...], secure: secure))
            }
        }
    }

    func testTheCacheKeepsOnePreparationPerOptionsAndFollowsEdits() {
        let options = LinkOptions(utm: utm)
        var link = F.link(mobile: false)
        link.options = options
        var cache = PreparedOptionsCache(capacity: 2)
        let first = cache.prepared(options, of: link)
        XCTAssertTrue(cache.prepared(options, of: link) === first)
        // The same options object on a link whose URL changed: prepared afresh.
        var edited = link
        edited.url = "https://edited.test/"
        let again = cache.prepared(options, of: edited)
        XCTAssertFalse(again === first)
        XCTAssertEqual(again.destination(.link).url, WebDestination.compose(edited.url, utm: utm, visitorQuery: nil))
        XCTAssertEqual(cache.count, 1)
        // Past its capacity the cache starts over.
        for _ in 0..<2 {
            let other = LinkOptions(passQuery: true)
            var l = link
            l.options = other
            _ = cache.prepared(other, of: l)
        }
        XCTAssertEqual(cache.count, 1)
    }
}
