import Core
import HTTPMessages
import Model
import Store
import Templates
import XCTest

import struct Visit.InAppDeepView

@testable import Edge
@testable import HTTP

/// Each answer of a visit (issue 34 item 5), through the flow's seams: a store in memory
/// (or away), the clicks kept, and a clock that says 1_700_000_000_000.
final class VisitFlowTests: XCTestCase {
    static let now: Int64 = 1_700_000_000_000
    static let androidUA =
        "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/96.0.4664.104 Mobile Safari/537.36"
    static let iPhoneUA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Safari/604.1"
    static let desktopUA =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    static let slackbotUA = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"

    private let store = MemoryVisitStore()
    private let clicks = KeptClicks()
    private var flow: VisitFlow!
    private var context: RequestContext!

    override func setUpWithError() throws {
        let pages = Pages()
        flow = VisitFlow(
            store: store, pages: pages, deepViews: DeepViewCache(pages: pages, loops: 1), clicks: clicks,
            clock: { Self.now }, clients: ClientAddressResolver(trusted: []),
            sourceHasher: SourceAddressHasher(key: SourceAddressHasher.generateKey()), geoIP: nil, loops: 1,
            log: Log(level: .error, sink: CapturingLogSink()))
        let loop = try EventLoop(
            index: 0, configuration: HTTPServerConfiguration(), handler: NoHandler(), listeners: [],
            certificates: CertificateSet.load(directory: nil))
        context = RequestContext(
            loop: loop, loopIndex: 0, peerAddress: "203.0.113.9", listener: .https, serverName: "go.example.com",
            fd: -1, generation: 0)
        store.apps[Fixtures.appId] = Fixtures.app
        store.links["go.example.com/invite"] = Fixtures.link()
    }

    private func visit(
        _ target: String = "/invite", userAgent: String, referer: String? = nil, domain: Domain = Fixtures.domain()
    ) -> VisitAnswer {
        var headers = HTTPHeaders()
        headers.add("Host", "go.example.com")
        headers.add("User-Agent", userAgent)
        if let referer { headers.add("Referer", referer) }
        let request = HTTPRequest(method: .get, target: target, headers: headers)
        let key = request.path.dropFirst()
        return flow.answer(request, context, domain: domain, key: key)
    }

    private func now(_ answer: VisitAnswer, file: StaticString = #filePath, line: UInt = #line) -> HTTPResponse? {
        guard case .now(let response) = answer else {
            XCTFail("the answer waits for a write", file: file, line: line)
            return nil
        }
        return response
    }

    func testAndroidGoesToPlayWithTheTokenInTheReferrerOnceTheClickAndHandoffAreWritten() throws {
        let answer = visit("/invite?ref=bob", userAgent: Self.androidUA, referer: "https://news.example.org/story")
        guard case .afterWrite(let click, let handoff, let success, let fallback) = answer else {
            return XCTFail("\(answer)")
        }
        XCTAssertEqual(success.status, 302)
        let location = try XCTUnwrap(success.headers["location"])
        let head = "https://play.google.com/store/apps/details?id=com.example.app&referrer=biqli_token%3D"
        XCTAssertTrue(location.hasPrefix(head), location)
        let token = String(location.dropFirst(head.count))
        let written = try XCTUnwrap(handoff)
        XCTAssertEqual(written.tokenHash, HandoffToken.hash(token))
        XCTAssertEqual(written.clickId, click.id)
        XCTAssertEqual(written.platform, .android)
        XCTAssertEqual(written.createdAt, Self.now)
        XCTAssertEqual(success.headers["referrer-policy"], "no-referrer")
        XCTAssertEqual(click.kind, .androidRedirect)
        XCTAssertEqual(click.at, Self.now)
        XCTAssertEqual(click.referrer, "news.example.org")
        XCTAssertEqual(click.dynamic.map { "\($0.0)=\($0.1)" }, ["ref=bob"])
        XCTAssertEqual(clicks.recorded.count, 0, "written with the handoff, not by the recorder")
        // The store cannot write: the visitor still reaches Play, without a token.
        let failed = fallback()
        XCTAssertEqual(failed.status, 302)
        XCTAssertEqual(failed.headers["location"], "https://play.google.com/store/apps/details?id=com.example.app")
    }

    func testIPhoneGetsTheDeepViewOnceTheClickAndHandoffAreWritten() throws {
        let answer = visit(userAgent: Self.iPhoneUA)
        guard case .afterWrite(let click, let handoff, let success, let fallback) = answer else {
            return XCTFail("\(answer)")
        }
        XCTAssertEqual(success.status, 200)
        XCTAssertEqual(success.headers["content-type"], "text/html; charset=utf-8")
        let page = String(decoding: success.body, as: UTF8.self)
        XCTAssertTrue(page.contains("https://go.example.com/m/handoff?biqli_token="), page)
        XCTAssertEqual(click.kind, .deepView)
        XCTAssertEqual(handoff?.platform, .ios)
        XCTAssertEqual(handoff?.clickId, click.id)
        XCTAssertEqual(fallback().headers["location"], Fixtures.fallbackURL)
    }

    func testIPhoneWithTheDeepViewOffGoesToTheFallbackURLAndItsClickIsNotWaitedFor() throws {
        let response = try XCTUnwrap(now(visit(userAgent: Self.iPhoneUA, domain: Fixtures.domain(deepView: false))))
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], Fixtures.fallbackURL)
        XCTAssertEqual(clicks.recorded.map(\.kind), [.iosFallback])
        XCTAssertEqual(clicks.recorded.map(\.platform), [.ios])
        XCTAssertEqual(store.written.count, 0)
    }

    func testDesktopGoesToTheWebURLAndItsClickIsNotWaitedFor() throws {
        let response = try XCTUnwrap(now(visit(userAgent: Self.desktopUA, referer: "https://t.co/x")))
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], Fixtures.webURL)
        XCTAssertEqual(clicks.recorded.map(\.kind), [.desktop])
        XCTAssertEqual(clicks.recorded.map(\.referrer), ["t.co"])
        XCTAssertEqual(clicks.recorded.map(\.at), [Self.now])
        XCTAssertEqual(store.written.count, 0)
    }

    func testDesktopOfALinkThatTracksConversionsWaitsForItsClickAndCarriesItsId() throws {
        store.links["go.example.com/invite"] = Fixtures.link(trackConversions: true)
        guard case .afterWrite(let click, let handoff, let success, let fallback) = visit(userAgent: Self.desktopUA)
        else { return XCTFail("the answer does not wait") }
        XCTAssertNil(handoff)
        XCTAssertEqual(success.headers["location"], Fixtures.webURL + "?bq_id=" + click.id)
        XCTAssertEqual(fallback().headers["location"], Fixtures.webURL, "without an id the store does not know")
        XCTAssertEqual(clicks.recorded.count, 0)
    }

    func testAPreviewBotGetsThePreviewPageAndIsCountedNotClicked() throws {
        let response = try XCTUnwrap(now(visit(userAgent: Self.slackbotUA)))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("Example"))
        XCTAssertEqual(clicks.recorded.count, 0)
        XCTAssertEqual(clicks.previews.map(\.linkId), [Fixtures.link().id])
        XCTAssertEqual(clicks.previews.map(\.at), [Self.now])
    }

    func testADisabledLinkIsGoneOrGoesToTheDomainsNotFoundURL() throws {
        var link = Fixtures.link()
        link.enabled = false
        store.links["go.example.com/invite"] = link
        let gone = try XCTUnwrap(now(visit(userAgent: Self.androidUA)))
        XCTAssertEqual(gone.status, 410)
        var domain = Fixtures.domain()
        domain.notFoundUrl = "https://example.com/missing"
        let redirected = try XCTUnwrap(now(visit(userAgent: Self.androidUA, domain: domain)))
        XCTAssertEqual(redirected.status, 302)
        XCTAssertEqual(redirected.headers["location"], "https://example.com/missing")
        XCTAssertEqual(clicks.recorded.count + store.written.count, 0)
    }

    func testAnUnknownLinkOrAnImpossibleKeyIsNotFound() throws {
        XCTAssertEqual(try XCTUnwrap(now(visit("/nothing", userAgent: Self.desktopUA))).status, 404)
        XCTAssertEqual(try XCTUnwrap(now(visit("/a%20b", userAgent: Self.desktopUA))).status, 404)
        XCTAssertEqual(store.linkReads, 1, "an impossible key is not looked up")
        var domain = Fixtures.domain()
        domain.notFoundUrl = "https://example.com/missing"
        let redirected = try XCTUnwrap(now(visit("/nothing", userAgent: Self.desktopUA, domain: domain)))
        XCTAssertEqual(redirected.headers["location"], "https://example.com/missing")
        XCTAssertEqual(clicks.recorded.count, 0)
    }

    func testTheStoreAwayIsAnAgainShortlyNotANotFound() throws {
        store.away = true
        var domain = Fixtures.domain()
        domain.notFoundUrl = "https://example.com/missing"
        let response = try XCTUnwrap(now(visit(userAgent: Self.androidUA, domain: domain)))
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.headers["retry-after"], "5")
        XCTAssertEqual(clicks.recorded.count + store.written.count, 0)
    }

    // MARK: iOS in-app browsers (issue 36 item 4, decision 0033 §4)

    static func instagramUA(_ version: String) -> String {
        "Mozilla/5.0 (iPhone; CPU iPhone OS \(version) like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
            + "Mobile/15E148 Instagram 354.0.0.29.90 (iPhone12,8; iOS \(version); en_US; en; scale=2.00; 750x1334)"
    }
    static let snapchatUA =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/18.1 Mobile/15E148 Snapchat/12.72.0.39 (like Safari/8617.2.4.10.8, panda)"

    /// The page and click of a durable in-app visit.
    private func inAppVisit(_ target: String, userAgent: String, domain: Domain = Fixtures.domain()) throws -> (
        page: String, click: Click
    ) {
        let answer = visit(target, userAgent: userAgent, domain: domain)
        guard case .afterWrite(let click, let handoff, let success, _) = answer else {
            XCTFail("the answer does not wait: \(answer)")
            throw CancellationError()
        }
        XCTAssertEqual(success.status, 200)
        XCTAssertEqual(handoff?.clickId, click.id)
        return (String(decoding: success.body, as: UTF8.self), click)
    }

    func testAnInAppIPhoneGetsSafariAndTheAlternateDomainBesideContinue() throws {
        let (page, click) = try inAppVisit(
            "/invite?ref=bob", userAgent: Self.instagramUA("17_5"),
            domain: Fixtures.domain(alternateHostname: "open.example.com"))
        XCTAssertEqual(click.kind, .inAppPage)
        XCTAssertEqual(click.inAppBrowser, "instagram")
        XCTAssertTrue(page.contains(">You’re in Instagram’s browser</h2>"), page)
        XCTAssertTrue(page.contains("href=\"x-safari-https://go.example.com/invite?ref=bob&amp;bq_ia=1\""), page)
        XCTAssertTrue(page.contains("href=\"https://open.example.com/invite?ref=bob\">Open in Example</a>"), page)
        XCTAssertEqual(page.components(separatedBy: "biqli_token=").count, 2, "the handoff once, on Continue")
        XCTAssertTrue(
            page.contains("id=\"biqli-continue\" class=\"button\" href=\"https://apps.apple.com/app/id1234567890\""))
    }

    func testBeforeIOS17Point5TheMenuStepsAndNoAlternateDomainWithoutOne() throws {
        let (page, click) = try inAppVisit("/invite", userAgent: Self.instagramUA("17_4"))
        XCTAssertEqual(click.kind, .inAppPage)
        XCTAssertTrue(page.contains("id=\"biqli-steps\" class=\"note\">To open this page in Safari, tap ⋯"), page)
        XCTAssertFalse(page.contains("x-safari"))
        XCTAssertFalse(page.contains("biqli-app"))
    }

    func testSnapchatGetsTheGenericStepsOnAnyVersion() throws {
        let (page, click) = try inAppVisit("/invite", userAgent: Self.snapchatUA)
        XCTAssertEqual(click.inAppBrowser, "snapchat")
        XCTAssertTrue(page.contains(">You’re in Snapchat’s browser</h2>"), page)
        XCTAssertTrue(page.contains("To open this page in Safari, open the app’s menu"), page)
        XCTAssertFalse(page.contains("x-safari"))
    }

    func testARegularIPhoneGetsTheCachedPageWithoutThePart() throws {
        let (page, click) = try inAppVisit(
            "/invite", userAgent: Self.iPhoneUA, domain: Fixtures.domain(alternateHostname: "open.example.com"))
        XCTAssertEqual(click.kind, .deepView)
        XCTAssertFalse(page.contains("in-app") || page.contains("x-safari") || page.contains("open.example.com"))
    }

    func testThePartsLinksFromThePlansOffer() {
        let all = InAppDeepView(safari: .scheme, alternateDomain: true)
        let part = InAppDeepViewPart.make(
            all, tag: "tiktok", host: "go.example.com", alternateHost: "open.example.com", target: "/k?a=1")
        XCTAssertEqual(
            part,
            DeepViewInApp(
                browserName: "TikTok", safariURL: SafeURL("https://go.example.com/k?a=1&bq_ia=1"),
                appURL: SafeURL("https://open.example.com/k?a=1")))
        // A query no page may hold as a URL: the steps instead of the link.
        let quoted = InAppDeepViewPart.make(
            all, tag: "webview", host: "go.example.com", alternateHost: nil, target: "/k?a=\"x\"")
        XCTAssertEqual(quoted, DeepViewInApp(browserName: nil, steps: .appMenu))
        let off = InAppDeepViewPart.make(
            InAppDeepView(safari: .off, alternateDomain: false), tag: "instagram", host: "go.example.com",
            alternateHost: "open.example.com", target: "/k")
        XCTAssertEqual(off, DeepViewInApp(browserName: "Instagram"))
        let steps = InAppDeepViewPart.make(
            InAppDeepView(safari: .menuSteps, alternateDomain: false), tag: "instagram", host: "go.example.com",
            alternateHost: nil, target: "/k")
        XCTAssertEqual(steps, DeepViewInApp(browserName: "Instagram", steps: .ellipsisMenu))
    }

    // MARK: the operator's switches of the in-app escapes (decision 0033 §5)

    static let instagramAndroidUA =
        "Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
        + "Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36 Instagram 312.0.0.32.112 Android (33/13; 480dpi)"

    /// The kind of the click of an Instagram Android visit, its app having App Links.
    private func instagramVisitKind(link: Link = Fixtures.link()) -> ClickKind? {
        var app = Fixtures.app
        app.android?.sha256CertFingerprints = [String(repeating: "AB:", count: 31) + "AB"]
        store.apps[Fixtures.appId] = app
        store.links["go.example.com/invite"] = link
        guard case .afterWrite(let click, _, _, _) = visit(userAgent: Self.instagramAndroidUA) else { return nil }
        return click.kind
    }

    func testTheWorkspacesSwitchesChooseTheInAppAnswer() {
        XCTAssertEqual(instagramVisitKind(), .appIntent, "no switches: every escape")
        store.workspaceEscapes = InAppEscapeSwitches(["instagram": [.playIntent, .safari]])
        XCTAssertEqual(instagramVisitKind(), .playIntent, "appIntent off for instagram")
        store.workspaceEscapes = InAppEscapeSwitches(["tiktok": [], "*": []])
        XCTAssertEqual(instagramVisitKind(), .androidRedirect, "every escape off: today's Play redirect")
        store.workspaceEscapes = InAppEscapeSwitches(["tiktok": []])
        XCTAssertEqual(instagramVisitKind(), .appIntent, "another app's switch")
    }

    func testALinksOwnSwitchesWinOverTheWorkspaces() {
        store.workspaceEscapes = InAppEscapeSwitches(["instagram": [.playIntent]])
        var link = Fixtures.link()
        link.options = LinkOptions(inAppEscapes: InAppEscapeSwitches(["*": []]))
        XCTAssertEqual(instagramVisitKind(link: link), .androidRedirect)
        link.options = LinkOptions(inAppEscapes: InAppEscapeSwitches(["instagram": [.appIntent]]))
        XCTAssertEqual(instagramVisitKind(link: link), .appIntent)
        // A regular browser's visit is not in-app: no switch changes it.
        store.links["go.example.com/invite"] = link
        guard case .afterWrite(let click, _, _, _) = visit(userAgent: Self.androidUA) else { return XCTFail() }
        XCTAssertEqual(click.kind, .androidRedirect)
    }

    func testTheServiceWritesTheClickAndHandoffThroughTheStoreSeam() throws {
        // `visit` (what the route calls) hands the durable answer's rows to the store.
        var headers = HTTPHeaders()
        headers.add("User-Agent", Self.androidUA)
        let result = flow.visit(
            HTTPRequest(method: .get, target: "/invite", headers: headers), &context, domain: Fixtures.domain(),
            key: "invite")
        guard case .deferred = result else { return XCTFail("\(result)") }
        XCTAssertEqual(store.written.map(\.click.kind), [.androidRedirect])
        XCTAssertEqual(store.written.map { $0.handoff?.clickId }, store.written.map(\.click.id))
    }
}

private enum Fixtures {
    static let appId = "biq_mapp_01J00000000000000000000001"
    static let webURL = "https://example.com/invite"
    static let fallbackURL = "https://example.com/ios"

    static func link(trackConversions: Bool? = nil) -> Link {
        Link(
            id: "biq_lnk_01J00000000000000000000001", domain: "go.example.com", key: "invite", url: webURL,
            mobile: MobilePayload(appId: appId, route: "/invite/42", dynamicKeys: ["ref"]),
            trackConversions: trackConversions)
    }

    static let app = MobileApp(
        id: appId, name: "Example", enabled: true,
        ios: IOSPlatform(
            teamId: "ABCDE12345", bundleId: "com.example.app", appStoreId: "1234567890", testFlightUrl: nil,
            fallbackUrl: fallbackURL, probabilisticFallback: false),
        android: AndroidPlatform(packageName: "com.example.app", playStoreUrl: nil))

    static func domain(deepView: Bool = true, alternateHostname: String? = nil) -> Domain {
        Domain(
            hostname: "go.example.com", verified: true, deepViewEnabled: deepView, trackConversions: false,
            alternateHostname: alternateHostname)
    }
}

private final class NoHandler: HTTPHandler {
    func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        .response(HTTPResponse(status: 500))
    }
}
