import Core
import GeoIP
import HTTPMessages
import Model
import Store
import Templates
import XCTest

import enum Visit.VariantDraw

@testable import Edge
@testable import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// A visit of a link with options (issue 35, decision 0032) carried out by the flow: the
/// rules' destination, UTM and the visitor's query, the variant and its cookie, expiry.
/// The visitor's address is 203.0.113.9, which the test GeoIP file places in Brazil.
final class VisitFlowOptionsTests: XCTestCase {
    static let now: Int64 = 1_700_000_000_000
    static let androidUA =
        "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.104 Mobile Safari/537.36"
    static let desktopUA =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    static let appId = "biq_mapp_01J00000000000000000000001"
    static let webURL = "https://example.com/invite"
    static let variants = [
        LinkVariant(url: "https://a.example.com/", weight: 50), LinkVariant(url: "https://b.example.com/", weight: 50),
    ]

    private let store = MemoryVisitStore()
    private let clicks = KeptClicks()
    private var flow: VisitFlow!
    private var context: RequestContext!

    /// One GeoIP file for the whole class (making it takes perl most of a second).
    nonisolated(unsafe) private static var scratch: ScratchDirectory?
    private static var database: String { (scratch?.path ?? "") + "/countries.mmdb" }

    override class func setUp() {
        let directory = ScratchDirectory(prefix: "visit-options")
        scratch = directory
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../tests/geoip/make-mmdb.pl").standardized.path
        let status = system("perl '\(script)' '\(database)' '203.0.113.0/24=BR'")
        precondition(status == 0, "make-mmdb.pl failed")
    }

    override class func tearDown() {
        unlink(database)
        scratch?.remove()
    }

    override func setUpWithError() throws {
        let pages = Pages()
        flow = VisitFlow(
            store: store, pages: pages, deepViews: DeepViewCache(pages: pages, loops: 1), clicks: clicks,
            clock: { Self.now }, clients: ClientAddressResolver(trusted: []),
            sourceHasher: SourceAddressHasher(key: SourceAddressHasher.generateKey()),
            geoIP: try GeoIPLookup(path: Self.database, loops: 1), loops: 1,
            log: Log(level: .error, sink: CapturingLogSink()))
        let loop = try EventLoop(
            index: 0, configuration: HTTPServerConfiguration(), handler: NoHandler(), listeners: [],
            certificates: CertificateSet.load(directory: nil))
        context = RequestContext(
            loop: loop, loopIndex: 0, peerAddress: "203.0.113.9", listener: .https, serverName: "go.example.com",
            fd: -1, generation: 0)
        store.apps[Self.appId] = MobileApp(
            id: Self.appId, name: "Example", enabled: true, ios: nil,
            android: AndroidPlatform(packageName: "com.example.app", playStoreUrl: nil))
    }

    private func serve(_ options: LinkOptions, mobile: Bool = false, trackConversions: Bool? = nil) {
        store.links["go.example.com/invite"] = Link(
            id: "biq_lnk_01J00000000000000000000001", domain: "go.example.com", key: "invite", url: Self.webURL,
            mobile: mobile ? MobilePayload(appId: Self.appId, route: "/invite/42", dynamicKeys: ["ref"]) : nil,
            trackConversions: trackConversions, options: options)
    }

    private func visit(
        _ target: String = "/invite", userAgent: String = desktopUA, headers extra: [(String, String)] = [],
        domain: Domain = Domain(hostname: "go.example.com", verified: true)
    ) -> VisitAnswer {
        var headers = HTTPHeaders()
        headers.add("Host", "go.example.com")
        headers.add("User-Agent", userAgent)
        for (name, value) in extra { headers.add(name, value) }
        let request = HTTPRequest(method: .get, target: target, headers: headers)
        return flow.answer(request, context, domain: domain, key: request.path.dropFirst())
    }

    private func now(_ answer: VisitAnswer, file: StaticString = #filePath, line: UInt = #line) -> HTTPResponse? {
        guard case .now(let response) = answer else {
            XCTFail("the answer waits for a write", file: file, line: line)
            return nil
        }
        return response
    }

    // MARK: Rules

    func testTheCountryIsLookedUpBeforeThePlanWhenARuleNamesCountries() throws {
        serve(
            LinkOptions(rules: [
                LinkRule(conditions: RuleConditions(countries: ["US"]), url: "https://us.example.com/"),
                LinkRule(conditions: RuleConditions(countries: ["BR"]), url: "https://br.example.com/"),
            ]))
        let response = try XCTUnwrap(now(visit()))
        XCTAssertEqual(response.headers["location"], "https://br.example.com/")
        XCTAssertEqual(clicks.recorded.map(\.country), ["BR"])
        XCTAssertNil(response.headers["set-cookie"])
    }

    func testALanguageRuleTakesTheFirstPreferredTag() throws {
        serve(
            LinkOptions(rules: [LinkRule(conditions: RuleConditions(languages: ["pt"]), url: "https://pt.example.com/")]
            ))
        let pt = try XCTUnwrap(now(visit(headers: [("Accept-Language", "pt-BR,en;q=0.8")])))
        XCTAssertEqual(pt.headers["location"], "https://pt.example.com/")
        let en = try XCTUnwrap(now(visit(headers: [("Accept-Language", "en,pt-BR;q=0.8")])))
        XCTAssertEqual(en.headers["location"], Self.webURL)
    }

    func testSkipAppSendsAMobileVisitorOfAnAppLinkToTheRuleWithoutAHandoff() throws {
        serve(
            LinkOptions(rules: [
                LinkRule(conditions: RuleConditions(countries: ["BR"]), url: "https://br.example.com/", skipApp: true)
            ]), mobile: true)
        let response = try XCTUnwrap(now(visit(userAgent: Self.androidUA)))
        XCTAssertEqual(response.headers["location"], "https://br.example.com/")
        XCTAssertEqual(clicks.recorded.map(\.kind), [.desktop])
        XCTAssertEqual(clicks.recorded.map(\.platform), [.android])
        XCTAssertEqual(store.written.count, 0, "no handoff")
    }

    // MARK: UTM and the visitor's query

    func testUTMAndTheVisitorsQueryShapeTheDestination() throws {
        serve(LinkOptions(utm: UTMParameters(source: "news", campaign: "spring"), passQuery: true))
        let response = try XCTUnwrap(now(visit("/invite?utm_source=x&ref=bob&bq_id=1&biqli_token=t")))
        XCTAssertEqual(
            response.headers["location"], "https://example.com/invite?utm_source=news&utm_campaign=spring&ref=bob")
    }

    func testTheDomainsDefaultDecidesWhenTheLinkDoesNot() throws {
        serve(LinkOptions(utm: UTMParameters(medium: "m")))
        XCTAssertEqual(try XCTUnwrap(now(visit("/invite?a=1"))).headers["location"], Self.webURL + "?utm_medium=m")
        let passing = Domain(hostname: "go.example.com", verified: true, passQuery: true)
        XCTAssertEqual(
            try XCTUnwrap(now(visit("/invite?a=1", domain: passing))).headers["location"],
            Self.webURL + "?utm_medium=m&a=1")
        serve(LinkOptions(utm: UTMParameters(medium: "m"), passQuery: false))
        XCTAssertEqual(
            try XCTUnwrap(now(visit("/invite?a=1", domain: passing))).headers["location"], Self.webURL + "?utm_medium=m"
        )
    }

    func testALinkWithoutOptionsPassesTheQueryWhenItsDomainSays() throws {
        serve(LinkOptions())
        XCTAssertNil(store.links["go.example.com/invite"]?.options, "a plain link")
        XCTAssertEqual(try XCTUnwrap(now(visit("/invite?a=1&bq_id=2"))).headers["location"], Self.webURL)
        let passing = Domain(hostname: "go.example.com", verified: true, passQuery: true)
        XCTAssertEqual(
            try XCTUnwrap(now(visit("/invite?a=1&bq_id=2", domain: passing))).headers["location"],
            Self.webURL + "?a=1")
    }

    func testUTMNeverReachesTheStore() throws {
        serve(LinkOptions(utm: UTMParameters(source: "s"), passQuery: true), mobile: true)
        guard case .afterWrite(_, _, let success, let fallback) = visit("/invite?x=1", userAgent: Self.androidUA) else {
            return XCTFail()
        }
        XCTAssertFalse(success.headers["location"]!.contains("utm_"))
        XCTAssertEqual(fallback().headers["location"], "https://play.google.com/store/apps/details?id=com.example.app")
    }

    // MARK: Variants

    func testADrawnArmIsSetInTheCookieAndRecordedOnTheClick() throws {
        serve(LinkOptions(variants: Self.variants))
        let response = try XCTUnwrap(now(visit()))
        let arm = try XCTUnwrap(clicks.recorded.first?.variant)
        XCTAssertEqual(response.headers["location"], Self.variants[arm].url)
        let fingerprint = VariantDraw.fingerprint(Self.variants)
        XCTAssertEqual(
            response.headers["set-cookie"],
            "bq_v=\(arm).\(fingerprint); Path=/invite; Max-Age=7776000; HttpOnly; SameSite=Lax; Secure")
    }

    func testAKeptArmIsServedWithoutANewCookie() throws {
        serve(LinkOptions(variants: Self.variants))
        let fingerprint = VariantDraw.fingerprint(Self.variants)
        for _ in 0..<20 {
            let response = try XCTUnwrap(now(visit(headers: [("Cookie", "x=1; bq_v=1.\(fingerprint)")])))
            XCTAssertEqual(response.headers["location"], Self.variants[1].url)
            XCTAssertNil(response.headers["set-cookie"])
        }
        XCTAssertEqual(clicks.recorded.map(\.variant), Array(repeating: 1, count: 20))
    }

    func testATrackedVariantVisitSetsItsCookieOnBothAnswers() throws {
        serve(LinkOptions(variants: Self.variants), trackConversions: true)
        guard case .afterWrite(let click, _, let success, let fallback) = visit() else { return XCTFail() }
        let arm = try XCTUnwrap(click.variant)
        XCTAssertTrue(success.headers["location"]!.hasPrefix(Self.variants[arm].url + "?bq_id="))
        XCTAssertNotNil(success.headers["set-cookie"])
        XCTAssertEqual(fallback().headers["location"], Self.variants[arm].url)
        XCTAssertNotNil(fallback().headers["set-cookie"])
    }

    // MARK: Expiry

    func testAnExpiredLinkGoesToItsExpiredURLAndRecordsNothing() throws {
        serve(LinkOptions(expiresAt: Self.now, expiredUrl: "https://example.com/over"))
        let response = try XCTUnwrap(now(visit(userAgent: Self.androidUA)))
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "https://example.com/over")
        XCTAssertEqual(clicks.recorded.count, 0)
    }

    func testAnExpiredLinkWithoutAnExpiredURLIsALocalizedGone() throws {
        serve(LinkOptions(expiresAt: Self.now))
        let response = try XCTUnwrap(now(visit(headers: [("Accept-Language", "fr-FR,fr;q=0.9")])))
        XCTAssertEqual(response.status, 410)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("Ce lien a expiré"))
        XCTAssertEqual(clicks.recorded.count, 0)
        // One millisecond before, the link serves.
        serve(LinkOptions(expiresAt: Self.now + 1))
        XCTAssertEqual(try XCTUnwrap(now(visit())).headers["location"], Self.webURL)
    }
}

private final class NoHandler: HTTPHandler {
    func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        .response(HTTPResponse(status: 500))
    }
}
