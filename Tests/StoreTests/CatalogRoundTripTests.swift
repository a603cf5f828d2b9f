import Core
import Model
import XCTest

@testable import Store

/// Every field of domains, apps, links, keys and records survives a write and a
/// read, through a loop's reader and inside a transaction.
final class CatalogRoundTripTests: StoreTestCase {
    func testThePublishableKeysVersionMovesWithKeysOnly() throws {
        try seedCatalog()
        let start = store.publishableKeysVersion
        try write { tx in try tx.insertClick(Fixture.click(id: "biq_clk_1", at: 1)) }
        XCTAssertEqual(store.publishableKeysVersion, start, "a click is no key change")
        try write { tx in
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_v", appId: Fixture.appId, keyHash: [9], hint: "v", createdAt: 1))
        }
        let afterPut = store.publishableKeysVersion
        XCTAssertGreaterThan(afterPut, start, "visible as soon as the write returns")
        XCTAssertNotNil(try write { tx in try tx.deleteApp(Fixture.appId) })
        XCTAssertGreaterThan(store.publishableKeysVersion, afterPut, "deleting an app revokes its keys")
    }

    func testDomainAppAndLinkSurviveThroughReaderAndTransaction() throws {
        try seedCatalog()
        XCTAssertEqual(try reader.domain(Fixture.host), Fixture.domain())
        XCTAssertEqual(try reader.domains(), [Fixture.domain()])
        XCTAssertEqual(try reader.app(Fixture.appId), Fixture.app())
        XCTAssertEqual(try reader.apps(), [Fixture.app()])
        XCTAssertEqual(try reader.apps(attachedTo: Fixture.host), [Fixture.app()])
        XCTAssertEqual(try reader.apps(attachedTo: "other.example.com"), [])
        XCTAssertEqual(try reader.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertEqual(try reader.link(id: Fixture.linkId), Fixture.link())

        let seen = try write { tx in
            (
                try tx.domain(Fixture.host), try tx.app(Fixture.appId), try tx.apps(attachedTo: Fixture.host),
                try tx.link(host: Fixture.host, key: "invite")
            )
        }
        XCTAssertEqual(seen.0, Fixture.domain())
        XCTAssertEqual(seen.1, Fixture.app())
        XCTAssertEqual(seen.2, [Fixture.app()])
        XCTAssertEqual(seen.3, Fixture.link())
    }

    func testOptionalPartsStayAbsentAndEmptyPreviewStaysPresent() throws {
        let bare = Domain(hostname: "bare.example.com")
        let app = MobileApp(id: "biq_mapp_bare", name: "Bare")
        var web = Link(id: "biq_lnk_web", domain: "bare.example.com", key: "w", url: "https://example.com/")
        var emptyPreview = web
        emptyPreview.id = "biq_lnk_empty"
        emptyPreview.key = "e"
        emptyPreview.preview = LinkPreview()
        emptyPreview.mobile = MobilePayload(appId: "biq_mapp_bare", route: "/")
        web.enabled = false
        try write { [web, emptyPreview] tx in
            try tx.putDomain(bare)
            try tx.putApp(app)
            try tx.putLink(web)
            try tx.putLink(emptyPreview)
        }
        XCTAssertEqual(try reader.domain("bare.example.com"), bare)
        XCTAssertEqual(try reader.app("biq_mapp_bare"), app)
        XCTAssertEqual(try reader.link(host: "bare.example.com", key: "w"), web)
        XCTAssertNil(try reader.link(id: "biq_lnk_web")?.mobile)
        XCTAssertEqual(try reader.link(id: "biq_lnk_empty"), emptyPreview)
        XCTAssertEqual(try reader.link(id: "biq_lnk_empty")?.preview, LinkPreview())
    }

    func testPutReplacesDomainAppAndLinkAndKeepsAttachmentOrder() throws {
        try seedCatalog()
        var app = Fixture.app()
        app.name = "Renamed"
        app.ios = nil
        try write { tx in
            try tx.putDomain(Fixture.domain("a.example.com"))
            try tx.putDomain(Fixture.domain("z.example.com"))
        }
        app.domains = ["z.example.com", Fixture.host, "a.example.com"]
        var link = Fixture.link()
        link.url = "https://example.com/changed"
        link.mobile = nil
        try write { [app, link] tx in
            try tx.putApp(app)
            try tx.putLink(link)
        }
        XCTAssertEqual(try reader.app(Fixture.appId), app)
        XCTAssertEqual(try reader.apps(attachedTo: "z.example.com"), [app])
        XCTAssertEqual(try reader.link(id: Fixture.linkId), link)
        XCTAssertEqual(try reader.domains().map(\.hostname), ["a.example.com", "go.example.com", "z.example.com"])
    }

    func testLinksArePagedByIdAndFilteredByDomain() throws {
        try seedCatalog()
        try write { tx in
            try tx.putDomain(Fixture.domain("b.example.com"))
            for i in 1...5 {
                try tx.putLink(
                    Fixture.link(id: "biq_lnk_\(i)", host: i % 2 == 0 ? "b.example.com" : Fixture.host, key: "k\(i)"))
            }
        }
        let first = try reader.links(domain: nil, after: nil, limit: 4).map(\.id)
        XCTAssertEqual(first, ["biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAX", "biq_lnk_1", "biq_lnk_2", "biq_lnk_3"])
        let second = try reader.links(domain: nil, after: first.last, limit: 4).map(\.id)
        XCTAssertEqual(second, ["biq_lnk_4", "biq_lnk_5"])
        XCTAssertEqual(
            try reader.links(domain: "b.example.com", after: nil, limit: 10).map(\.id), ["biq_lnk_2", "biq_lnk_4"])
        XCTAssertEqual(
            try reader.links(domain: "b.example.com", after: "biq_lnk_2", limit: 10).map(\.id), ["biq_lnk_4"])
        XCTAssertEqual(try reader.links(domain: nil, after: nil, limit: 0), [])
    }

    func testKeysAndRecordsRoundTrip() throws {
        try seedCatalog()
        let secret = SecretKeyRecord(id: "sk_1", name: "ci", keyHash: [1, 2], hint: "abcd", createdAt: 1, revokedAt: 7)
        let live = SecretKeyRecord(id: "sk_2", name: "ops", keyHash: [3], hint: "efgh", createdAt: 2)
        let pk = PublishableKeyRecord(
            id: "pk_1", appId: Fixture.appId, keyHash: [4, 5], hint: "wxyz", createdAt: 3, expiresAt: 9, revokedAt: nil)
        let pk2 = PublishableKeyRecord(id: "pk_2", appId: Fixture.appId, keyHash: [6], hint: "q", createdAt: 4)
        let signing = SigningKeyRecord(
            kid: "kid1", publicKey: [1, 1], secretKey: [2, 2], createdAt: 5, retiredAt: 6, publishUntil: 8)
        let signing2 = SigningKeyRecord(kid: "kid2", publicKey: [3], secretKey: [4], createdAt: 6)
        let record = IdempotencyRecord(
            scope: "POST /links", keyHash: [7], requestHash: [8], status: 201, body: [], createdAt: 9)
        try write { tx in
            try tx.putSecretKey(secret)
            try tx.putSecretKey(live)
            try tx.putPublishableKey(pk)
            try tx.putPublishableKey(pk2)
            try tx.putSigningKey(signing)
            try tx.putSigningKey(signing2)
            try tx.putIdempotencyRecord(record)
        }
        XCTAssertEqual(try reader.secretKey(hash: [1, 2]), secret)
        XCTAssertNil(try reader.secretKey(hash: [1]))
        XCTAssertEqual(try reader.secretKeys(), [secret, live])
        XCTAssertEqual(try reader.publishableKey(hash: [4, 5]), pk)
        XCTAssertEqual(try reader.publishableKeys(app: Fixture.appId), [pk, pk2])
        XCTAssertEqual(try reader.signingKeys(), [signing, signing2])
        XCTAssertEqual(try reader.idempotencyRecord(scope: "POST /links", keyHash: [7]), record)
        XCTAssertNil(try reader.idempotencyRecord(scope: "POST /apps", keyHash: [7]))

        var revoked = live
        revoked.revokedAt = 10
        try write { [revoked] tx in try tx.putSecretKey(revoked) }
        XCTAssertEqual(try reader.secretKey(hash: [3])?.revokedAt, 10)
    }
}
