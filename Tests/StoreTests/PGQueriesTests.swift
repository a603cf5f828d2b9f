import Core
import Model
import XCTest

@testable import Store

/// PostgreSQL's reads answer what SQLite's answer for the same writes: every model
/// type, in the same order, through a reader on another connection and inside the
/// writing transaction.
final class PGQueriesTests: PGTestCase {
    private static let otherHost = "b.example.com"

    private func seedCatalog() throws {
        let otherHost = Self.otherHost
        try applyToBoth { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putDomain(Fixture.domain(otherHost))
            try tx.putDomain(Domain(hostname: "bare.example.com"))
            try tx.putApp(Fixture.app(domains: [otherHost, Fixture.host, otherHost]))
            try tx.putApp(MobileApp(id: "biq_mapp_bare", name: "Bare", domains: [Fixture.host]))
            try tx.putLink(Fixture.link())
            try tx.putLink(Fixture.link(id: "biq_lnk_web", key: "web", appId: nil))
            var bare = Link(id: "biq_lnk_bare", domain: "bare.example.com", key: "w", url: "https://example.com/")
            bare.enabled = false
            try tx.putLink(bare)
            var empty = Fixture.link(id: "biq_lnk_empty", host: otherHost, key: "e", appId: "biq_mapp_bare")
            empty.preview = LinkPreview()
            empty.mobile?.metadata = .object([])
            empty.mobile?.dynamicKeys = []
            empty.mobile?.referralCode = nil
            try tx.putLink(empty)
        }
    }

    func testCatalogReadsMatchSQLite() throws {
        try seedCatalog()
        try assertSameAsSQLite("domain") { try $0.domain(Fixture.host) }
        try assertSameAsSQLite("bare domain") { try $0.domain("bare.example.com") }
        try assertSameAsSQLite("unknown domain") { try $0.domain("none.example.com") }
        try assertSameAsSQLite("domains") { try $0.domains() }
        try assertSameAsSQLite("app") { try $0.app(Fixture.appId) }
        try assertSameAsSQLite("bare app") { try $0.app("biq_mapp_bare") }
        try assertSameAsSQLite("apps") { try $0.apps() }
        try assertSameAsSQLite("attached") { try $0.apps(attachedTo: Fixture.host) }
        try assertSameAsSQLite("attached elsewhere") { try $0.apps(attachedTo: Self.otherHost) }
        try assertSameAsSQLite("attached nowhere") { try $0.apps(attachedTo: "bare.example.com") }
        try assertSameAsSQLite("link by key") { try $0.link(host: Fixture.host, key: "invite") }
        try assertSameAsSQLite("web link") { try $0.link(host: Fixture.host, key: "web") }
        try assertSameAsSQLite("key is case-sensitive") { try $0.link(host: Fixture.host, key: "Invite") }
        for id in [Fixture.linkId, "biq_lnk_web", "biq_lnk_bare", "biq_lnk_empty", "biq_lnk_none"] {
            try assertSameAsSQLite("link \(id)") { try $0.link(id: id) }
        }
        try assertSameAsSQLite("claims") { try $0.linkClaims(domain: Fixture.host) }
        let app = try XCTUnwrap(try reader.app(Fixture.appId))
        XCTAssertEqual(
            app, Fixture.app(domains: [Self.otherHost, Fixture.host]), "a repeated domain once, first place")
        XCTAssertEqual(try reader.link(id: "biq_lnk_empty")?.preview, LinkPreview())
    }

    /// Deleting an app answers the links it turned into web links, as they now are, as
    /// SQLite does (the API reports each as `link.updated`); nil for an unknown app.
    func testDeletingAnAppReturnsTheLinksItChangedAsSQLiteDoes() throws {
        try seedCatalog()
        let fromSQLite = try sqliteStore.writeAndWait { tx in try tx.deleteApp("biq_mapp_bare") }
        let fromPG = try inTransaction { tx in try tx.deleteApp("biq_mapp_bare") }
        XCTAssertEqual(fromPG?.map(\.id), ["biq_lnk_empty"])
        XCTAssertEqual(fromPG, fromSQLite)
        XCTAssertNil(fromPG?.first?.mobile)
        XCTAssertEqual(fromPG?.first, try reader.link(id: "biq_lnk_empty"))
        XCTAssertNil(try inTransaction { tx in try tx.deleteApp("biq_mapp_bare") }, "already gone")
    }

    func testLinkPagesAndClaimsComeInByteOrder() throws {
        // Byte order puts upper case and '_' before lower case; most collations do not.
        let keys = ["b", "B", "_x", "a-1", "a_1", "Zeta", "é", "e"]
        try applyToBoth { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putDomain(Fixture.domain("other.example.com"))
            try tx.putApp(Fixture.app())
            for (i, key) in keys.enumerated() {
                try tx.putLink(Fixture.link(id: "biq_lnk_\(key)", key: key, appId: i % 3 == 0 ? nil : Fixture.appId))
                try tx.putLink(Fixture.link(id: "biq_lnk_o\(i)", host: "other.example.com", key: key))
            }
        }
        try assertSameAsSQLite("claims") { try $0.linkClaims(domain: Fixture.host) }
        try assertSameAsSQLite("all links") { try $0.links(domain: nil, after: nil, limit: 100).map(\.id) }
        try assertSameAsSQLite("one domain") { try $0.links(domain: Fixture.host, after: nil, limit: 100).map(\.id) }
        try assertSameAsSQLite("zero") { try $0.links(domain: nil, after: nil, limit: 0).map(\.id) }
        // Paging through three at a time gives every link once, in order.
        var paged: [String] = []
        var after: String?
        while true {
            let page = try reader.links(domain: Fixture.host, after: after, limit: 3)
            paged += page.map(\.id)
            guard page.count == 3 else { break }
            after = page.last?.id
        }
        XCTAssertEqual(paged, try reader.links(domain: Fixture.host, after: nil, limit: 100).map(\.id))
        XCTAssertEqual(paged, paged.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(paged.count, keys.count)
    }

    func testKeysAndRecordsMatchSQLite() throws {
        try seedCatalog()
        try applyToBoth { tx in
            try tx.putSecretKey(SecretKeyRecord(id: "sk_a", name: "CI", keyHash: [1, 2], hint: "ab", createdAt: 5))
            try tx.putSecretKey(
                SecretKeyRecord(id: "sk_B", name: "ops", keyHash: [3], hint: "cd", createdAt: 5, revokedAt: 9))
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk_2", appId: Fixture.appId, keyHash: [7, 7], hint: "77", createdAt: 2, expiresAt: 100))
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_1", appId: Fixture.appId, keyHash: [8], hint: "88", createdAt: 2))
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk_gone", appId: "biq_mapp_gone", keyHash: [9], hint: "99", createdAt: 1, revokedAt: 3))
            try tx.putSigningKey(
                SigningKeyRecord(
                    kid: "k2", publicKey: [1], secretKey: [2], createdAt: 10, retiredAt: 20, publishUntil: 30))
            try tx.putSigningKey(SigningKeyRecord(kid: "k1", publicKey: [3], secretKey: [4], createdAt: 10))
            try tx.putIdempotencyRecord(
                IdempotencyRecord(
                    scope: "links", keyHash: [5], requestHash: [6], status: 201, body: Array("{}".utf8), createdAt: 3))
        }
        try assertSameAsSQLite("secret key") { try $0.secretKey(hash: [1, 2]) }
        try assertSameAsSQLite("revoked secret key") { try $0.secretKey(hash: [3]) }
        try assertSameAsSQLite("no secret key") { try $0.secretKey(hash: [4]) }
        try assertSameAsSQLite("secret keys") { try $0.secretKeys() }
        try assertSameAsSQLite("publishable key") { try $0.publishableKey(hash: [7, 7]) }
        try assertSameAsSQLite("a gone app's key") { try $0.publishableKey(hash: [9]) }
        try assertSameAsSQLite("publishable keys") { try $0.publishableKeys(app: Fixture.appId) }
        try assertSameAsSQLite("signing keys") { try $0.signingKeys() }
        try assertSameAsSQLite("record") { try $0.idempotencyRecord(scope: "links", keyHash: [5]) }
        try assertSameAsSQLite("no record") { try $0.idempotencyRecord(scope: "apps", keyHash: [5]) }
        XCTAssertEqual(try reader.secretKeys().map(\.id), ["sk_B", "sk_a"], "byte order")
    }

    func testClicksHandoffsOpensAndInstancesMatchSQLite() throws {
        let now = self.now
        let click = Fixture.click(id: "biq_clk_1", at: now - 1_000)
        var bare = Click(
            id: "biq_clk_2", linkId: "l", appId: nil, domain: "d", at: now - 2_000, kind: .desktop, platform: .desktop)
        bare.dynamic = []
        let handoff = Fixture.handoff(token: 7, clickId: "biq_clk_1")
        var claimed = Fixture.handoff(token: 8, clickId: "biq_clk_2")
        claimed.claimedByInstance = "install_x"
        claimed.claimedByOpen = "biq_open_x"
        claimed.platform = .ios
        claimed.snapshot.referralCode = nil
        claimed.snapshot.dynamic = []
        claimed.snapshot.metadata = .object([])
        var withReceipt = Fixture.open(
            id: "biq_open_2", eventId: "open_b2", idempotencyKeyHash: SHA256.hash("key_b2"), at: now - 3_000)
        withReceipt.receipt = [UInt8](repeating: 0x41, count: 1_200)
        withReceipt.receiptExpiresAt = now + 600_000
        try applyToBoth { [bare, claimed, withReceipt] tx in
            try tx.insertClick(click)
            try tx.insertClick(bare)
            try tx.insertHandoff(handoff)
            try tx.insertHandoff(claimed)
            var own = Fixture.open(
                id: "biq_open_1", eventId: "open_a1", idempotencyKeyHash: SHA256.hash("open_a1"), at: now - 4_000)
            // A receipt stored unsigned (decision 0023).
            own.receiptInput = Array("eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0".utf8)
            own.receiptExpiresAt = now + 600_000
            try tx.insertOpenEvent(own, idempotencyKey: "open_a1")
            try tx.insertOpenEvent(withReceipt, idempotencyKey: "key_b2")
            try tx.insertOpenEvent(
                Fixture.open(id: "biq_open_3", eventId: "open_c3", idempotencyKeyHash: [], at: now - 5_000))
            try tx.insertOpenEvent(
                Fixture.open(
                    id: "biq_open_4", eventId: "open_d4", idempotencyKeyHash: SHA256.hash("key_d4"), at: now - 6_000,
                    matchedBy: .none, firstOpen: false))
            try tx.upsertAppInstance(
                AppInstance(appId: Fixture.appId, instanceId: "install_a", platform: .ios, createdAt: 5))
            try tx.upsertAppInstance(
                AppInstance(
                    appId: Fixture.appId, instanceId: "install_b", platform: .android, firstOpenId: "biq_open_1",
                    createdAt: 6))
        }
        XCTAssertEqual(try reader.click(id: "biq_clk_1"), click)
        for id in ["biq_clk_1", "biq_clk_2", "biq_clk_3"] { try assertSameAsSQLite(id) { try $0.click(id: id) } }
        for token: UInt8 in [7, 8, 9] {
            try assertSameAsSQLite("handoff \(token)") {
                try $0.handoff(tokenHash: [UInt8](repeating: token, count: 32))
            }
        }
        XCTAssertEqual(try reader.handoff(tokenHash: claimed.tokenHash), claimed)
        for id in ["biq_open_1", "biq_open_2", "biq_open_3", "biq_open_4", "biq_open_5"] {
            try assertSameAsSQLite(id) { try $0.openEvent(id: id) }
        }
        XCTAssertEqual(try reader.openEvent(id: "biq_open_2"), withReceipt)
        XCTAssertEqual(try reader.openEvent(id: "biq_open_1")?.idempotencyKeyHash, SHA256.hash("open_a1"))
        for event in ["open_a1", "open_b2", "open_c3", "key_b2", "none"] {
            try assertSameAsSQLite("event \(event)") { try $0.openEvent(app: Fixture.appId, eventId: event) }
            try assertSameAsSQLite("other app's \(event)") { try $0.openEvent(app: "biq_mapp_x", eventId: event) }
        }
        for key in ["open_a1", "key_b2", "key_d4", "open_c3", "none"] {
            try assertSameAsSQLite("hash of \(key)") {
                try $0.openEvent(app: Fixture.appId, idempotencyKeyHash: SHA256.hash(key))
            }
            for event in ["open_a1", "open_b2", "open_new"] {
                try assertSameAsSQLite("\(event) or \(key)") {
                    try $0.openEvent(
                        app: Fixture.appId, eventId: event, idempotencyKey: key, keyHash: SHA256.hash(key))
                }
            }
        }
        try assertSameAsSQLite("empty hash") { try $0.openEvent(app: Fixture.appId, idempotencyKeyHash: []) }
        for instance in ["install_a", "install_b", "install_c"] {
            try assertSameAsSQLite(instance) { try $0.appInstance(app: Fixture.appId, instance: instance) }
        }
    }

    func testAnalyticsMatchSQLite() throws {
        let now = self.now
        let hour = ClickCounter.hourMilliseconds
        let start = ClickCounter.hour(now) * hour
        try applyToBoth { tx in
            for i in 0..<5 {
                try tx.insertClick(Fixture.click(id: "biq_clk_i\(i)", at: start + Int64(i)))
                try tx.insertClick(
                    Fixture.click(id: "biq_clk_a\(i)", at: start - hour + Int64(i), platform: .android, kind: .desktop))
            }
            try tx.insertClick(Fixture.click(id: "biq_clk_old", at: start - 3 * hour))
            try tx.insertClick(Fixture.click(id: "biq_clk_none", at: start, app: nil))
            try tx.insertClick(Fixture.click(id: "biq_clk_other", at: start, app: "biq_mapp_other"))
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: start + 5)
            try tx.countPreview(appId: nil, linkId: Fixture.linkId, platform: .bot, at: start + 5)
            for (i, match) in [MatchType.exactHandoff, .none, .exactHandoff, .probabilistic].enumerated() {
                try tx.insertOpenEvent(
                    Fixture.open(
                        id: "biq_open_\(i)", eventId: "open_\(i)", at: start + Int64(i) * 1_000, matchedBy: match,
                        firstOpen: i % 2 == 0))
            }
            try tx.insertOpenEvent(Fixture.open(id: "biq_open_old", eventId: "open_old", at: start - 1))
        }
        for since in [start + 500, start - hour + 3, start - 10 * hour] {
            for recent in [0, 2, 10] {
                try assertSameAsSQLite("since \(since), \(recent) recent") {
                    try $0.analytics(app: Fixture.appId, since: since, recent: recent)
                }
            }
        }
        let counts = try reader.analytics(app: Fixture.appId, since: start + 500, recent: 0)
        XCTAssertEqual(
            counts.clicks,
            [
                AppAnalytics.ClickCount(platform: .bot, kind: .previewBot, count: 1),
                AppAnalytics.ClickCount(platform: .ios, kind: .deepView, count: 5),
            ], "the hour that holds `since` counts in full")
    }
}
