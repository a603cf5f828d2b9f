import Core
import Model
import XCTest

@testable import Store

/// What every backend must do with the catalog, the links and the keys (`CatalogReading`
/// and `CatalogWriting`, `LinkReading` and `LinkWriting`, `KeyReading` and `KeyWriting`,
/// `SigningKeyReading` and `SigningKeyWriting`, `IdempotencyReading` and
/// `IdempotencyWriting`): every field survives a write and a read, through the committed
/// rows and inside a transaction; the uniqueness rules answer `.conflict`.
enum CatalogContract {
    static let suite: [ContractCase] = [
        (
            "domain, app and link survive through reader and transaction",
            domainAppAndLinkSurviveThroughReaderAndTransaction
        ),
        (
            "optional parts stay absent and an empty preview stays present",
            optionalPartsStayAbsentAndEmptyPreviewStaysPresent
        ),
        (
            "put replaces domain, app and link and keeps the attachment order",
            putReplacesDomainAppAndLinkAndKeepsAttachmentOrder
        ),
        ("links are paged by id and filtered by domain", linksArePagedByIdAndFilteredByDomain),
        ("keys and records round-trip", keysAndRecordsRoundTrip),
        ("inserting an existing domain conflicts", insertingAnExistingDomainConflicts),
        ("a link key is unique per domain only", linkKeyIsUniquePerDomainOnly),
        ("key hashes, handoffs and records are unique", keyHashesAndHandoffsAndRecordsAreUnique),
        ("missing references are named", missingReferencesAreNamed),
    ]

    /// Domain `go.example.com`, app `biq_mapp_A` attached to it, and a mobile link `invite`.
    static func seed(_ b: any ContractBackend) throws {
        try b.write { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
            try tx.putLink(Fixture.link())
        }
    }

    static func domainAppAndLinkSurviveThroughReaderAndTransaction(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        XCTAssertEqual(try b.committed.domain(Fixture.host), Fixture.domain())
        XCTAssertEqual(try b.committed.domains(), [Fixture.domain()])
        XCTAssertEqual(try b.committed.app(Fixture.appId), Fixture.app())
        XCTAssertEqual(try b.committed.apps(), [Fixture.app()])
        XCTAssertEqual(try b.committed.apps(attachedTo: Fixture.host), [Fixture.app()])
        XCTAssertEqual(try b.committed.apps(attachedTo: "other.example.com"), [])
        XCTAssertEqual(try b.committed.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertEqual(try b.committed.link(id: Fixture.linkId), Fixture.link())

        let seen = try b.write { tx in
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

    static func optionalPartsStayAbsentAndEmptyPreviewStaysPresent(_ b: any ContractBackend) throws {
        let bare = Domain(hostname: "bare.example.com")
        let app = MobileApp(id: "biq_mapp_bare", name: "Bare")
        var web = Link(id: "biq_lnk_web", domain: "bare.example.com", key: "w", url: "https://example.com/")
        var emptyPreview = web
        emptyPreview.id = "biq_lnk_empty"
        emptyPreview.key = "e"
        emptyPreview.preview = LinkPreview()
        emptyPreview.mobile = MobilePayload(appId: "biq_mapp_bare", route: "/")
        web.enabled = false
        try b.write { [web, emptyPreview] tx in
            try tx.putDomain(bare)
            try tx.putApp(app)
            try tx.putLink(web)
            try tx.putLink(emptyPreview)
        }
        XCTAssertEqual(try b.committed.domain("bare.example.com"), bare)
        XCTAssertEqual(try b.committed.app("biq_mapp_bare"), app)
        XCTAssertEqual(try b.committed.link(host: "bare.example.com", key: "w"), web)
        XCTAssertNil(try b.committed.link(id: "biq_lnk_web")?.mobile)
        XCTAssertEqual(try b.committed.link(id: "biq_lnk_empty"), emptyPreview)
        XCTAssertEqual(try b.committed.link(id: "biq_lnk_empty")?.preview, LinkPreview())
    }

    static func putReplacesDomainAppAndLinkAndKeepsAttachmentOrder(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        var app = Fixture.app()
        app.name = "Renamed"
        app.ios = nil
        try b.write { tx in
            try tx.putDomain(Fixture.domain("a.example.com"))
            try tx.putDomain(Fixture.domain("z.example.com"))
        }
        app.domains = ["z.example.com", Fixture.host, "a.example.com"]
        var link = Fixture.link()
        link.url = "https://example.com/changed"
        link.mobile = nil
        try b.write { [app, link] tx in
            try tx.putApp(app)
            try tx.putLink(link)
        }
        XCTAssertEqual(try b.committed.app(Fixture.appId), app)
        XCTAssertEqual(try b.committed.apps(attachedTo: "z.example.com"), [app])
        XCTAssertEqual(try b.committed.link(id: Fixture.linkId), link)
        XCTAssertEqual(try b.committed.domains().map(\.hostname), ["a.example.com", "go.example.com", "z.example.com"])
    }

    static func linksArePagedByIdAndFilteredByDomain(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        try b.write { tx in
            try tx.putDomain(Fixture.domain("b.example.com"))
            for i in 1...5 {
                try tx.putLink(
                    Fixture.link(id: "biq_lnk_\(i)", host: i % 2 == 0 ? "b.example.com" : Fixture.host, key: "k\(i)"))
            }
        }
        let first = try b.committed.links(domain: nil, after: nil, limit: 4).map(\.id)
        XCTAssertEqual(first, ["biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAX", "biq_lnk_1", "biq_lnk_2", "biq_lnk_3"])
        let second = try b.committed.links(domain: nil, after: first.last, limit: 4).map(\.id)
        XCTAssertEqual(second, ["biq_lnk_4", "biq_lnk_5"])
        XCTAssertEqual(
            try b.committed.links(domain: "b.example.com", after: nil, limit: 10).map(\.id), ["biq_lnk_2", "biq_lnk_4"])
        XCTAssertEqual(
            try b.committed.links(domain: "b.example.com", after: "biq_lnk_2", limit: 10).map(\.id), ["biq_lnk_4"])
        XCTAssertEqual(try b.committed.links(domain: nil, after: nil, limit: 0), [])
    }

    static func keysAndRecordsRoundTrip(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
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
        try b.write { tx in
            try tx.putSecretKey(secret)
            try tx.putSecretKey(live)
            try tx.putPublishableKey(pk)
            try tx.putPublishableKey(pk2)
            try tx.putSigningKey(signing)
            try tx.putSigningKey(signing2)
            try tx.putIdempotencyRecord(record)
        }
        XCTAssertEqual(try b.committed.secretKey(hash: [1, 2]), secret)
        XCTAssertNil(try b.committed.secretKey(hash: [1]))
        XCTAssertEqual(try b.committed.secretKeys(), [secret, live])
        XCTAssertEqual(try b.committed.publishableKey(hash: [4, 5]), pk)
        XCTAssertEqual(try b.committed.publishableKeys(app: Fixture.appId), [pk, pk2])
        XCTAssertEqual(try b.committed.signingKeys(), [signing, signing2])
        XCTAssertEqual(try b.committed.idempotencyRecord(scope: "POST /links", keyHash: [7]), record)
        XCTAssertNil(try b.committed.idempotencyRecord(scope: "POST /apps", keyHash: [7]))

        var revoked = live
        revoked.revokedAt = 10
        try b.write { [revoked] tx in try tx.putSecretKey(revoked) }
        XCTAssertEqual(try b.committed.secretKey(hash: [3])?.revokedAt, 10)
    }

    static func insertingAnExistingDomainConflicts(_ b: any ContractBackend) throws {
        try b.write { tx in try tx.insertDomain(Fixture.domain()) }
        XCTAssertEqual(b.writeError { tx in try tx.insertDomain(Fixture.domain()) }, .conflict(.domain))
        // put is an upsert and does not conflict.
        XCTAssertNil(b.writeError { tx in try tx.putDomain(Fixture.domain()) })
    }

    static func linkKeyIsUniquePerDomainOnly(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        XCTAssertEqual(
            b.writeError { tx in try tx.putLink(Fixture.link(id: "biq_lnk_other", key: "invite")) }, .conflict(.linkKey)
        )
        XCTAssertNil(try b.committed.link(id: "biq_lnk_other"))
        // The same key on another domain, and another key on this one, are fine.
        XCTAssertNil(
            b.writeError { tx in
                try tx.putDomain(Fixture.domain("b.example.com"))
                try tx.putLink(Fixture.link(id: "biq_lnk_b", host: "b.example.com", key: "invite"))
                try tx.putLink(Fixture.link(id: "biq_lnk_c", key: "Invite"))
            })
    }

    static func keyHashesAndHandoffsAndRecordsAreUnique(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        try b.write { tx in
            try tx.putSecretKey(SecretKeyRecord(id: "sk_1", name: "a", keyHash: [1], hint: "a", createdAt: 1))
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_1", appId: Fixture.appId, keyHash: [2], hint: "b", createdAt: 1))
            try tx.insertHandoff(VisitContract.handoff(1))
            try tx.putIdempotencyRecord(
                IdempotencyRecord(scope: "s", keyHash: [3], requestHash: [], status: 200, body: [1], createdAt: 1))
        }
        XCTAssertEqual(
            b.writeError { tx in
                try tx.putSecretKey(SecretKeyRecord(id: "sk_2", name: "b", keyHash: [1], hint: "b", createdAt: 2))
            },
            .conflict(.secretKey))
        XCTAssertEqual(
            b.writeError { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk_2", appId: Fixture.appId, keyHash: [2], hint: "c", createdAt: 2))
            }, .conflict(.publishableKey))
        XCTAssertEqual(
            b.writeError { tx in try tx.insertHandoff(VisitContract.handoff(1)) },
            .conflict(.handoff))
        XCTAssertEqual(
            b.writeError { tx in
                try tx.putIdempotencyRecord(
                    IdempotencyRecord(scope: "s", keyHash: [3], requestHash: [], status: 500, body: [], createdAt: 2))
            }, .conflict(.idempotencyRecord))
        // Click ids are not checked here: unique by how they are made (per-loop monotonic
        // ULIDs), and the table keeps no index on them (decision 0010).
    }

    static func missingReferencesAreNamed(_ b: any ContractBackend) throws {
        try CatalogContract.seed(b)
        XCTAssertEqual(
            b.writeError { tx in try tx.putLink(Fixture.link(id: "biq_lnk_2", host: "nowhere.example.com")) },
            .missingReference(.domain))
        XCTAssertEqual(
            b.writeError { tx in try tx.putLink(Fixture.link(id: "biq_lnk_2", key: "k2", appId: "biq_mapp_nobody")) },
            .missingReference(.app))
        XCTAssertEqual(
            b.writeError { tx in try tx.putApp(Fixture.app("biq_mapp_2", domains: ["nowhere.example.com"])) },
            .missingReference(.domain))
        XCTAssertNil(try b.committed.app("biq_mapp_2"))
        XCTAssertEqual(
            b.writeError { tx in
                try tx.putPublishableKey(
                    PublishableKeyRecord(id: "pk_9", appId: "biq_mapp_nobody", keyHash: [9], hint: "x", createdAt: 1))
            }, .missingReference(.app))
    }
}
