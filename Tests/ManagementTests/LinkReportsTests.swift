import Core
import HTTPMessages
import Model
import Store
import XCTest

@testable import Management

/// `GET /api/v1/links/{id}/analytics`, `qr.svg` and `qr.png` in process over a real
/// SQLite store: the answer's shape (zero-filled UTC days, totals, open-ended buckets),
/// the images and their headers, and every parameter's bounds.
final class LinkReportsTests: XCTestCase {
    var directory: ScratchDirectory!
    var store: SQLiteStore!
    var api: ManagementAPI!
    var key = ""
    /// 2027-01-15T08:00:00Z: day 20,833.
    let clock: Int64 = 1_800_000_000_000
    let day: Int64 = 86_400_000
    let linkId = "biq_lnk_01HREPORTS000000000000000"

    override func setUpWithError() throws {
        directory = ScratchDirectory(prefix: "link-reports")
        store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        key = KeyMaterial.newSecretKey()
        let record = SecretKeyRecord(
            id: "sk_1", name: "t", keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key), createdAt: 0)
        let link = Link(id: linkId, domain: "go.example.com", key: "spring-sale", url: "https://example.com/")
        try store.writeAndWait { tx in
            try tx.putSecretKey(record)
            try tx.putDomain(Domain(hostname: "go.example.com", createdAt: 0, updatedAt: 0))
            try tx.putLink(link)
        }
        let now = clock
        api = ManagementAPI(
            store: store,
            environment: ManagementEnvironment(
                httpsActive: { _ in true }, now: { now }, publicURL: "https://edge.example.com", retentionDays: 90,
                log: .discarding))
    }

    override func tearDown() {
        store?.close()
        directory?.remove()
    }

    func get(_ target: String) -> HTTPResponse {
        let request = HTTPRequest(
            method: .get, target: target, headers: HTTPHeaders([("authorization", "Bearer " + key)]), body: [])
        guard let response = InProcessAPI.answer(api, store, request) else {
            XCTFail("a read answers")
            return HTTPResponse(status: 0)
        }
        return response
    }

    func json(_ target: String) -> (Int, JSONValue) {
        let r = get(target)
        return (r.status, (try? JSONParser.parse(r.body)) ?? .null)
    }

    private func click(
        _ n: Int, at: Int64, _ platform: VisitorPlatform, browser: String? = nil, country: String? = nil,
        referrer: String? = nil
    ) -> Click {
        let kind: ClickKind = [.ios: .deepView, .android: .androidRedirect, .desktop: .desktop][platform] ?? .desktop
        return Click(
            id: "biq_clk_\(n)", linkId: linkId, appId: nil, domain: "go.example.com", at: at, kind: kind,
            platform: platform, inAppBrowser: browser, country: country, referrer: referrer)
    }

    private func open(_ n: Int, at: Int64, _ match: MatchType, first: Bool) -> OpenEvent {
        OpenEvent(
            id: "biq_open_\(n)", appId: "biq_mapp_x", appInstanceId: "install_\(n)", eventId: "e\(n)",
            idempotencyKeyHash: nil, requestHash: [1], platform: .ios, matchedBy: match, firstOpen: first,
            sdkVersion: "1.0.0", linkId: linkId, clickId: nil, at: at, storedResponse: [])
    }

    func testAnalyticsGiveTotalsAndEveryUTCDayOldestFirst() throws {
        let (clock, day) = (self.clock, self.day)
        let clicks = [
            click(1, at: clock, .ios, browser: "instagram", country: "DE", referrer: "l.instagram.com"),
            click(2, at: clock - 1_000, .ios, browser: "instagram", country: "DE", referrer: "l.instagram.com"),
            click(3, at: clock, .android, browser: "tiktok", country: "FR"),
            click(4, at: clock, .android, country: "DE", referrer: "t.co"),
            click(5, at: clock - 2 * day, .desktop, referrer: "t.co"),
            click(6, at: clock - 3 * day, .desktop, country: "US", referrer: "old.example"),  // before the window
        ]
        let opens = [
            open(1, at: clock, .exactHandoff, first: true), open(2, at: clock - 2 * day, .probabilistic, first: true),
            open(3, at: clock, .exactAppLink, first: false),
        ]
        let linkId = self.linkId
        try store.writeAndWait { tx in
            for c in clicks { try tx.insertClick(c) }
            for o in opens { try tx.insertOpenEvent(o) }
            try tx.countPreview(appId: nil, linkId: linkId, platform: .bot, at: clock - day)
        }
        let (status, body) = json("/api/v1/links/\(linkId)/analytics?days=3")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["linkId"]?.stringValue, linkId)
        XCTAssertEqual(body["shortUrl"], "https://go.example.com/spring-sale")
        XCTAssertEqual(body["days"], 3)
        XCTAssertEqual(body["since"], "2027-01-13T00:00:00.000Z")
        XCTAssertEqual(body["until"], .string(Timestamp.format(milliseconds: clock)))
        let c = body["clicks"]
        XCTAssertEqual(c?["total"], 6)
        XCTAssertEqual(c?["byPlatform"], ["ios": 2, "android": 2, "desktop": 1, "bot": 1])
        XCTAssertEqual(
            c?["byKind"],
            [
                "android_redirect": 2, "deep_view": 2, "ios_fallback": 0, "desktop": 1, "preview_bot": 1,
                "play_intent": 0,
                "app_intent": 0, "in_app_page": 0,
            ])
        // `none` first, then the most used.
        XCTAssertEqual(c?["byInAppBrowser"], ["none": 3, "instagram": 2, "tiktok": 1])
        XCTAssertEqual(c?["byCountry"], ["unknown": 2, "DE": 3, "FR": 1])
        // `none` (the bot's visit and the tiktok click) first, then by count, then by name.
        XCTAssertEqual(c?["byReferrer"], ["none": 2, "l.instagram.com": 2, "t.co": 2])
        XCTAssertEqual(
            c?["daily"],
            [
                ["day": "2027-01-13", "total": 1, "byPlatform": ["ios": 0, "android": 0, "desktop": 1, "bot": 0]],
                ["day": "2027-01-14", "total": 1, "byPlatform": ["ios": 0, "android": 0, "desktop": 0, "bot": 1]],
                ["day": "2027-01-15", "total": 4, "byPlatform": ["ios": 2, "android": 2, "desktop": 0, "bot": 0]],
            ])
        let o = body["opens"]
        XCTAssertEqual(o?["total"], 3)
        XCTAssertEqual(o?["firstOpens"], 2)
        XCTAssertEqual(
            o?["byMatchType"],
            ["exact_app_link": 1, "exact_install_referrer": 0, "exact_handoff": 1, "probabilistic": 1, "none": 0])
        XCTAssertEqual(o?["daily"]?.arrayValue?.map { $0["total"] }, [1, 0, 2])
        XCTAssertEqual(o?["daily"]?.arrayValue?.first?["byMatchType"]?["probabilistic"], 1)
    }

    /// The report's arms: the period's clicks and conversions of each arm seen, by arm; an
    /// arm seen through a sale alone is there; days outside the period are not.
    func testTheArmsTotalsAreThePeriodsByArm() {
        let counts = LinkAnalytics(
            clicks: [], opens: [],
            variantClicks: [
                .init(day: 92, variant: 0, count: 50),  // the period before: not counted
                .init(day: 100, variant: 1, count: 7), .init(day: 101, variant: 0, count: 3),
                .init(day: 101, variant: 1, count: 2),
            ],
            variantConversions: [
                .init(day: 100, variant: 1, type: .lead, currency: nil, count: 2, amount: 0),
                .init(day: 101, variant: 1, type: .sale, currency: "eur", count: 1, amount: 900),
                .init(day: 102, variant: 1, type: .sale, currency: "eur", count: 2, amount: Int128(Int64.max)),
                .init(day: 102, variant: 1, type: .sale, currency: "usd", count: 1, amount: 100),
                .init(day: 103, variant: 3, type: .sale, currency: "usd", count: 1, amount: 40),
                .init(day: 99, variant: 2, type: .lead, currency: nil, count: 9, amount: 0),  // before
            ])
        let report = LinkAnalyticsReport(firstDay: 100, days: 7, counts: counts)
        XCTAssertEqual(
            report.variants,
            [
                VariantTotals(arm: 0, clicks: 3),
                VariantTotals(
                    arm: 1, clicks: 9, leads: 2, sales: 4, revenue: ["eur": 900 + Int128(Int64.max), "usd": 100]),
                VariantTotals(arm: 3, sales: 1, revenue: ["usd": 40]),
            ])
        XCTAssertEqual(
            LinkAnalyticsReport(firstDay: 100, days: 7, counts: LinkAnalytics(clicks: [], opens: [])).variants, [])
    }

    /// `byVariant`: each arm the link has now (zeros when not clicked), then each arm seen
    /// that it no longer has (url and weight null), with the conversions of their clicks.
    func testByVariantListsTheLinksArmsAndThoseItNoLongerHas() throws {
        let (clock, linkId) = (self.clock, self.linkId)
        var link = Link(id: linkId, domain: "go.example.com", key: "spring-sale", url: "https://example.com/")
        link.options = LinkOptions(variants: [
            LinkVariant(url: "https://a.example/", weight: 50), LinkVariant(url: "https://b.example/", weight: 30),
            LinkVariant(url: "https://c.example/", weight: 20),
        ])
        func clicked(_ n: Int, _ arm: Int?) -> Click {
            var c = click(n, at: clock, .desktop)
            c.variant = arm
            return c
        }
        func sale(_ n: Int, arm: Int?, amount: Int64) -> ConversionEvent {
            ConversionEvent(
                id: "biq_sev_\(n)", type: .sale, eventId: "e\(n)", idempotencyKeyHash: [UInt8(n)], requestHash: [1],
                eventName: "Purchase", customerId: "biq_cus_1", clickId: "biq_clk_\(n)", linkId: linkId,
                amount: amount, currency: "usd", occurredAt: clock, createdAt: clock, response: [], variant: arm)
        }
        let clicks = [0, 0, 0, 2, 4, nil].enumerated().map { clicked($0, $1) }
        let sales = [sale(0, arm: 0, amount: 1_999), sale(4, arm: 4, amount: 500)]
        let tested = link
        try store.writeAndWait { tx in
            try tx.putLink(tested)
            for c in clicks { try tx.insertClick(c) }
            for e in sales { XCTAssertTrue(try tx.insertConversionEvent(e)) }
        }
        let (status, body) = json("/api/v1/links/\(linkId)/analytics?days=7")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(
            body["byVariant"],
            [
                [
                    "variant": 0, "url": "https://a.example/", "weight": 50, "clicks": 3, "leads": 0, "sales": 1,
                    "revenue": ["usd": 1_999],
                ],
                [
                    "variant": 1, "url": "https://b.example/", "weight": 30, "clicks": 0, "leads": 0, "sales": 0,
                    "revenue": [:],
                ],
                [
                    "variant": 2, "url": "https://c.example/", "weight": 20, "clicks": 1, "leads": 0, "sales": 0,
                    "revenue": [:],
                ],
                [
                    "variant": 4, "url": .null, "weight": .null, "clicks": 1, "leads": 0, "sales": 1,
                    "revenue": ["usd": 500],
                ],
            ])
        XCTAssertEqual(body["clicks"]?["total"], 6, "the arms' clicks are the link's too")
        // The test taken off the link: the arms seen stay, without their URLs.
        link.options = nil
        let plain = link
        try store.writeAndWait { tx in try tx.putLink(plain) }
        let after = json("/api/v1/links/\(linkId)/analytics?days=1").1["byVariant"]?.arrayValue ?? []
        XCTAssertEqual(after.map { $0["variant"] }, [0, 2, 4])
        XCTAssertEqual(after.map { $0["url"] }, [.null, .null, .null])
        XCTAssertEqual(after.map { $0["clicks"] }, [3, 1, 1])
    }

    func testReferringSitesBeyondTheLimitAreSummedAsOther() {
        let today: Int64 = 20_000
        let sites = (0..<60).map {
            LinkAnalytics.ReferrerCount(day: today, referrer: "s\($0).example", count: 100 - $0)
        }
        let report = LinkAnalyticsReport(
            firstDay: today - 6, days: 7,
            counts: LinkAnalytics(
                clicks: [.init(day: today, platform: .desktop, kind: .desktop, count: 4_230 + 7)], referrers: sites,
                opens: []))
        let top = report.topReferrers(50)
        XCTAssertEqual(top.count, 52)
        XCTAssertEqual(top.first?.name, "none")
        XCTAssertEqual(top.first?.count, 7, "the clicks without a site")
        XCTAssertEqual(top[1].name, "s0.example")
        XCTAssertEqual(top[50].name, "s49.example")
        XCTAssertEqual(top.last?.name, "other")
        XCTAssertEqual(top.last?.count, (50..<60).reduce(0) { $0 + 100 - $1 })
        XCTAssertEqual(report.topReferrers(60).count, 61, "no other when every site fits")
    }

    func testAnalyticsOfALinkWithoutClicksAreZerosForThirtyDaysByDefault() {
        let (status, body) = json("/api/v1/links/\(linkId)/analytics")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body["days"], 30)
        let daily = body["clicks"]?["daily"]?.arrayValue ?? []
        XCTAssertEqual(daily.count, 30)
        XCTAssertEqual(daily.first?["day"], "2026-12-17")
        XCTAssertEqual(daily.last?["day"], "2027-01-15")
        XCTAssertTrue(daily.allSatisfy { $0["total"] == 0 })
        XCTAssertEqual(body["clicks"]?["byInAppBrowser"], ["none": 0])
        XCTAssertEqual(body["clicks"]?["byCountry"], ["unknown": 0])
        XCTAssertEqual(body["clicks"]?["byReferrer"], ["none": 0])
        XCTAssertEqual(body["opens"]?["daily"]?.arrayValue?.count, 30)
        XCTAssertEqual(body["byVariant"], [], "a link without variants and none seen")
        XCTAssertEqual(json("/api/v1/links/\(linkId)/analytics?days=365").1["clicks"]?["daily"]?.arrayValue?.count, 365)
    }

    func testAnalyticsRefuseDaysOutsideOneTo365AndUnknownLinks() {
        for days in ["0", "366", "-1", "x", "", "1.5"] {
            let (status, body) = json("/api/v1/links/\(linkId)/analytics?days=\(days)")
            XCTAssertEqual(status, 400, days)
            XCTAssertEqual(body["error"]?["details"]?["field"], "days", days)
        }
        let (status, body) = json("/api/v1/links/biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAV/analytics")
        XCTAssertEqual(status, 404)
        XCTAssertEqual(body["error"]?["code"], "resource_not_found")
        XCTAssertEqual(json("/api/v1/links/\(linkId)/analytics?day=3").0, 400)
    }

    func testTheQRCodeImagesCarryTheirTypesAndMayBeKeptPrivately() {
        let png = get("/api/v1/links/\(linkId)/qr.png?size=200&margin=2&level=H")
        XCTAssertEqual(png.status, 200)
        XCTAssertEqual(png.headers["content-type"], "image/png")
        XCTAssertEqual(png.headers["cache-control"], "private, max-age=300")
        XCTAssertEqual(png.headers["content-disposition"], #"inline; filename="qr-spring-sale.png""#)
        XCTAssertNotNil(png.headers["x-biq-request-id"])
        XCTAssertEqual(Array(png.body.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(Array(png.body[16..<24]), [0, 0, 0, 200, 0, 0, 0, 200], "IHDR: 200 x 200")
        XCTAssertEqual(get("/api/v1/links/\(linkId)/qr.png").body[16..<24].last, 0, "512 = 0x200 by default")

        let svg = get("/api/v1/links/\(linkId)/qr.svg?size=64&margin=0")
        XCTAssertEqual(svg.status, 200)
        XCTAssertEqual(svg.headers["content-type"], "image/svg+xml")
        XCTAssertEqual(svg.headers["content-disposition"], #"inline; filename="qr-spring-sale.svg""#)
        let text = String(decoding: svg.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="64" height="64""#))
        XCTAssertEqual(get("/api/v1/links/\(linkId)/qr.svg").body, get("/api/v1/links/\(linkId)/qr.svg").body)
    }

    func testTheQRCodeParametersAreCheckedWithTheEnvelope() {
        for suffix in ["svg", "png"] {
            for (query, field) in [
                ("size=63", "size"), ("size=2049", "size"), ("size=big", "size"), ("margin=-1", "margin"),
                ("margin=17", "margin"), ("level=m", "level"), ("level=X", "level"), ("format=gif", "format"),
            ] {
                let (status, body) = json("/api/v1/links/\(linkId)/qr.\(suffix)?\(query)")
                XCTAssertEqual(status, 400, query)
                XCTAssertEqual(body["error"]?["details"]?["field"]?.stringValue, field, query)
            }
            XCTAssertEqual(get("/api/v1/links/\(linkId)/qr.\(suffix)?size=64&margin=16&level=L").status, 200)
            XCTAssertEqual(get("/api/v1/links/\(linkId)/qr.\(suffix)?size=2048&margin=0&level=Q").status, 200)
            let missing = json("/api/v1/links/biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAV/qr.\(suffix)")
            XCTAssertEqual(missing.0, 404)
            XCTAssertEqual(missing.1["error"]?["code"], "resource_not_found")
            XCTAssertEqual(
                get("/api/v1/links/\(linkId)/qr.\(suffix)").headers["content-type"]?.hasPrefix("image/"), true)
        }
    }
}
