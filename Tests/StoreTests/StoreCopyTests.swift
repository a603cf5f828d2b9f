import Core
import Model
import XCTest

@testable import Store

/// `StoreCopy` (`migrate-store`): a SQLite store copied into a new PostgreSQL database
/// answers every read as the SQLite store does, holds the very rows `PGTransaction`
/// writes for the same writes, leaves expired handoffs and console sessions out, and
/// leaves a database that is not empty, or into which anything fails, as it was: no
/// row, and no table it did not have.
///
/// The same writes go to the SQLite store and, as the reference, to the test case's
/// PostgreSQL database (`applyToBoth`); the copy goes into a second, new database.
final class StoreCopyTests: PGTestCase {
    private static let otherHost = "b.example.com"
    private static let day = PGPartitions.dayMilliseconds
    /// Older than the test database's partitions: the copy must make its day.
    private static var oldAt: Int64 { now - 200 * day }

    private var targetName: String?

    override func tearDown() {
        if let targetName { try? db?.execute("DROP DATABASE IF EXISTS \(targetName) WITH (FORCE)") }
        targetName = nil
        super.tearDown()
    }

    /// A new database (no schema) on the same cluster; dropped by `tearDown`.
    private func makeTarget() throws -> PGConnectionSettings {
        let name = database.name + "_copy"
        try db.execute("CREATE DATABASE \(name)")
        targetName = name
        return try PGConnectionSettings(PGTestDatabase.url(database.url, database: name))
    }

    /// Every kind of row: catalog, keys, records, clicks (one consumed, one 200 days
    /// old), counts, handoffs (claimed, unclaimed, expired), open events in every key
    /// form (none, its own eventId, another key) with and without a receipt, instances;
    /// enough clicks and events for several batches of 4.
    private static func populate(now: Int64) -> @Sendable (any StoreTransaction) throws -> Void {
        { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putDomain(Fixture.domain(otherHost))
            try tx.putDomain(Domain(hostname: "bare.example.com", passQuery: true))
            try tx.putTag(Tag(id: "biq_tag_a", name: "Spring", color: .teal, createdAt: 1, updatedAt: 2))
            try tx.putApp(Fixture.app(domains: [otherHost, Fixture.host]))
            try tx.putApp(MobileApp(id: "biq_mapp_bare", name: "Bare", domains: [Fixture.host]))
            try tx.putLink(Fixture.link())
            var web = Fixture.link(id: "biq_lnk_web", key: "web", appId: nil)
            web.options = LinkOptions(
                rules: [LinkRule(conditions: RuleConditions(countries: ["NZ"]), url: "https://example.com/nz")],
                variants: [
                    LinkVariant(url: "https://a.example/", weight: 50),
                    LinkVariant(url: "https://b.example/", weight: 50),
                ],
                utm: UTMParameters(source: "s"), passQuery: true, expiresAt: now, externalId: "ext 1",
                tagIds: ["biq_tag_a"])
            try tx.putLink(web)
            var bare = Link(id: "biq_lnk_bare", domain: "bare.example.com", key: "w", url: "https://example.com/")
            bare.enabled = false
            try tx.putLink(bare)
            try tx.putSecretKey(SecretKeyRecord(id: "sk_a", name: "CI", keyHash: [1, 2], hint: "ab", createdAt: 5))
            try tx.putBrowserKey(
                BrowserKeyRecord(id: "bk_a", name: "shop", keyHash: [7, 8], hint: "wxyz", createdAt: 6))
            try tx.putBrowserKey(
                BrowserKeyRecord(id: "bk_b", name: "old", keyHash: [9], hint: "abcd", createdAt: 7, revokedAt: 8))
            try tx.putClientClickSettings(
                ClientClickSettings(enabled: true, hostnames: ["shop.example.com", "*.example.org"], updatedAt: 9))
            try tx.putSecretKey(
                SecretKeyRecord(id: "sk_B", name: "ops", keyHash: [3], hint: "cd", createdAt: 5, revokedAt: 9))
            try tx.putSecretKey(
                SecretKeyRecord(
                    id: "sk_c", name: "shop", keyHash: [4], hint: "ef", createdAt: 6, scopes: [.conversionsCreate]))
            // Conversions (decision 0024): a customer and its sale.
            var customer = ConversionStoreCases.customer("c1", click: "biq_clk_a", name: "Ann", at: 7)
            customer.id = "biq_cus_1"
            _ = try tx.upsertCustomer(customer)
            var sale = ConversionStoreCases.event("invoice_1", key: [6], customer: customer.id, at: 8)
            sale.id = "biq_sev_1"
            _ = try tx.insertConversionEvent(sale)
            // Webhooks (decision 0028): an endpoint during a rotation, a delivery with an attempt.
            var endpoint = WebhookStoreCases.endpoint("biq_whk_1", [.openCreated, .saleCreated], apps: [Fixture.appId])
            endpoint.secret = "whsec_" + Base64.encode([UInt8](repeating: 1, count: 32))
            endpoint.previousSecret = "whsec_" + Base64.encode([UInt8](repeating: 2, count: 32))
            endpoint.previousSecretExpiresAt = now + 1
            try tx.putWebhookEndpoint(endpoint)
            try tx.enqueueWebhookEvent(
                WebhookEvent(
                    id: "msg_1", type: .openCreated, appId: Fixture.appId, linkId: nil, at: 9, body: Array("{}".utf8)))
            let leased = try tx.claimWebhookDeliveries(
                owner: "n", now: 9, leaseUntil: 99, limit: 1, perEndpoint: 1, excluding: [])
            _ = try tx.finishWebhookAttempt(
                WebhookAttempt(
                    endpointId: "biq_whk_1", messageId: "msg_1", number: 1, at: 9, durationMilliseconds: 3,
                    status: 503, error: nil, answer: "busy", node: "n"),
                owner: "n", claimedAttempts: leased.first?.attempts ?? -1, outcome: .retry(at: 50), now: 9)
            // The console's sessions: one signed in, a sign-in link, one expired.
            for (hash, kind, expires) in [
                (UInt8(1), ConsoleSession.Kind.session, now + 3_600_000), (2, .signInLink, now + 60_000),
                (3, .session, now - 1),
            ] {
                try tx.putConsoleSession(
                    ConsoleSession(
                        tokenHash: [UInt8](repeating: hash, count: 32), kind: kind, secretKeyId: "sk_a",
                        createdAt: now - 10, expiresAt: expires))
            }
            try tx.putPublishableKey(
                PublishableKeyRecord(
                    id: "pk_2", appId: Fixture.appId, keyHash: [7, 7], hint: "77", createdAt: 2, expiresAt: 100))
            try tx.putPublishableKey(
                PublishableKeyRecord(id: "pk_1", appId: Fixture.appId, keyHash: [8], hint: "88", createdAt: 2))
            try tx.putSigningKey(
                SigningKeyRecord(
                    kid: "k2", publicKey: [1], secretKey: [2], createdAt: 10, retiredAt: 20, publishUntil: 30))
            try tx.putSigningKey(SigningKeyRecord(kid: "k1", publicKey: [3], secretKey: [4], createdAt: 10))
            try tx.putIdempotencyRecord(
                IdempotencyRecord(
                    scope: "links", keyHash: [5], requestHash: [6], status: 201, body: Array("{}".utf8), createdAt: 3))
            // An ordered certificate, a failing order and the account (decision 0017).
            try tx.putStoredCertificate(
                StoredCertificate(
                    hostname: Fixture.host, status: .valid, chainPEM: "CHAIN\n", keyPEM: "KEY\n", notBefore: 1,
                    notAfter: now + 86_400_000, issuer: "CN=Test CA", renewalAt: now + 3_600_000,
                    renewalInfoCheckAt: now + 60_000, updatedAt: 4))
            try tx.putStoredCertificate(
                StoredCertificate(
                    hostname: otherHost, status: .failed, lastErrorType: "urn:ietf:params:acme:error:dns",
                    lastErrorDetail: "NXDOMAIN", failures: 3, nextAttemptAt: now + 600_000, leaseNode: "node-a",
                    leaseUntil: now + 1, updatedAt: 5))
            _ = try tx.insertACMEAccountIfAbsent(
                ACMEAccountRecord(
                    directoryURL: "https://ca.example/dir", keyPEM: "ACCOUNT KEY\n",
                    accountURL: "https://ca.example/acct/1", createdAt: 6))

            try tx.insertClick(Fixture.click(id: "biq_clk_1", at: now - 1_000))
            var desktop = Click(
                id: "biq_clk_2", linkId: "l", appId: nil, domain: "d", at: now - 2_000, kind: .desktop,
                platform: .desktop, country: "NZ", variant: 1)
            desktop.dynamic = []
            try tx.insertClick(desktop)
            try tx.insertClick(Fixture.click(id: "biq_clk_old", at: oldAt, platform: .android, sourceHash: nil))
            for i in 0..<9 {
                try tx.insertClick(Fixture.click(id: "biq_clk_n\(i)", at: now - Int64(i) * 3_600_000))
            }
            _ = try tx.consumeClick(id: "biq_clk_1", openId: "biq_open_2")
            try tx.countPreview(appId: Fixture.appId, linkId: Fixture.linkId, platform: .bot, at: now)

            try tx.insertHandoff(Fixture.handoff(token: 7, clickId: "biq_clk_1", expiresAt: now + 600_000))
            var claimed = Fixture.handoff(token: 8, clickId: "biq_clk_2", expiresAt: now + 600_000)
            claimed.claimedByInstance = "install_x"
            claimed.claimedByOpen = "biq_open_x"
            claimed.snapshot.dynamic = []
            try tx.insertHandoff(claimed)
            try tx.insertHandoff(Fixture.handoff(token: 9, clickId: "biq_clk_n1", expiresAt: now - 1))

            var own = Fixture.open(
                id: "biq_open_1", eventId: "open_a1", idempotencyKeyHash: SHA256.hash("open_a1"), at: now - 4_000)
            own.receiptInput = Array("header.payload".utf8)
            own.receiptExpiresAt = now + 600_000
            try tx.insertOpenEvent(own, idempotencyKey: "open_a1")
            var withReceipt = Fixture.open(
                id: "biq_open_2", eventId: "open_b2", idempotencyKeyHash: SHA256.hash("key_b2"), at: now - 3_000)
            withReceipt.receipt = [UInt8](repeating: 0x41, count: 300)
            withReceipt.receiptExpiresAt = now + 600_000
            try tx.insertOpenEvent(withReceipt, idempotencyKey: "key_b2")
            try tx.insertOpenEvent(Fixture.open(id: "biq_open_3", eventId: "open_c3", at: now - 5_000))
            try tx.insertOpenEvent(
                Fixture.open(
                    id: "biq_open_old", eventId: "open_old", idempotencyKeyHash: SHA256.hash("key_old"), at: oldAt,
                    matchedBy: .none, firstOpen: false))
            for i in 0..<6 {
                let event = "open_n\(i)"
                try tx.insertOpenEvent(
                    Fixture.open(
                        id: "biq_open_n\(i)", eventId: event, idempotencyKeyHash: SHA256.hash(event),
                        at: now - Int64(i) * 60_000),
                    idempotencyKey: event)
            }
            try tx.upsertAppInstance(
                AppInstance(appId: Fixture.appId, instanceId: "install_a", platform: .ios, createdAt: 5))
            try tx.upsertAppInstance(
                AppInstance(
                    appId: Fixture.appId, instanceId: "install_b", platform: .android, firstOpenId: "biq_open_1",
                    createdAt: 6))
        }
    }

    func testACopyAnswersEveryReadAsTheSQLiteStoreAndHoldsPGTransactionsRows() throws {
        try PGPartitions.ensure(on: db, from: Self.oldAt, through: Self.oldAt)
        try applyToBoth(Self.populate(now: now))
        let settings = try makeTarget()
        let report = try StoreCopy.run(sqlitePath: try sqliteStore.path, to: settings, now: now, batchSize: 4)

        XCTAssertEqual(report.tables.map(\.table), CopyTable.targetTables)
        for t in report.tables { XCTAssertEqual(t.copied, t.source, t.table) }
        let copied = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0.copied) })
        XCTAssertEqual(copied["handoffs"], 2)
        XCTAssertEqual(report.expiredHandoffs, 1)
        XCTAssertEqual(copied["console_sessions"], 2)
        XCTAssertEqual(report.expiredConsoleSessions, 1)
        XCTAssertEqual(copied["clicks"], 12)
        XCTAssertEqual(copied["open_events"], 10)
        XCTAssertEqual(copied["open_event_keys"], 12, "an 'e' per event, a 'k' for key_b2 and key_old")

        let target = try PGConnection.connect(settings)
        let copy = PGQueries(db: target)
        func same<T: Equatable>(_ what: String, _ read: (any StoreReader) throws -> T) throws {
            XCTAssertEqual(try read(copy), try read(try sqliteStore.reader(loop: 0)), what)
        }
        try same("domains") { try $0.domains() }
        try same("apps") { try $0.apps() }
        try same("attached") { try $0.apps(attachedTo: Fixture.host) }
        try same("links") { try $0.links(domain: nil, after: nil, limit: 100) }
        try same("tags") { try $0.tags() }
        try same("links of a tag") { try $0.links(tagId: "biq_tag_a", after: nil, limit: 10) }
        try same("link by key") { try $0.link(host: Fixture.host, key: "invite") }
        try same("claims") { try $0.linkClaims(domain: Fixture.host) }
        try same("secret keys") { try $0.secretKeys() }
        try same("secret key") { try $0.secretKey(hash: [3]) }
        try same("browser keys") { try $0.browserKeys() }
        try same("browser key") { try $0.browserKey(hash: [7, 8]) }
        try same("client click settings") { try $0.clientClickSettings() }
        try same("scoped key") { try $0.secretKey(hash: [4]) }
        try same("customer") { try $0.customer(externalId: "c1") }
        try same("sale") { try $0.conversionEvent(eventId: "invoice_1") }
        try same("sale by key") { try $0.conversionEvent(idempotencyKeyHash: [6]) }
        try same("webhook endpoints") { try $0.webhookEndpoints() }
        try same("webhook delivery") { try $0.webhookDelivery(endpointId: "biq_whk_1", messageId: "msg_1") }
        try same("webhook attempts") { try $0.webhookAttempts(endpointId: "biq_whk_1", messageId: "msg_1") }
        XCTAssertEqual(try copy.webhookAttempts(endpointId: "biq_whk_1", messageId: "msg_1").count, 1)
        try same("publishable keys") { try $0.publishableKeys(app: Fixture.appId) }
        try same("publishable key") { try $0.publishableKey(hash: [7, 7]) }
        try same("signing keys") { try $0.signingKeys() }
        try same("record") { try $0.idempotencyRecord(scope: "links", keyHash: [5]) }
        try same("certificates") { try $0.storedCertificates() }
        try same("account") { try $0.acmeAccount(directoryURL: "https://ca.example/dir") }
        for hash: UInt8 in [1, 2] {
            try same("console session \(hash)") {
                try $0.consoleSession(tokenHash: [UInt8](repeating: hash, count: 32))
            }
            XCTAssertNotNil(try copy.consoleSession(tokenHash: [UInt8](repeating: hash, count: 32)))
        }
        XCTAssertNil(try copy.consoleSession(tokenHash: [UInt8](repeating: 3, count: 32)), "expired: left out")
        XCTAssertEqual(copied["certificates"], 2)
        XCTAssertEqual(copied["acme_accounts"], 1)
        for id in ["biq_clk_1", "biq_clk_2", "biq_clk_old", "biq_clk_n8"] { try same(id) { try $0.click(id: id) } }
        for token: UInt8 in [7, 8] {
            try same("handoff \(token)") { try $0.handoff(tokenHash: [UInt8](repeating: token, count: 32)) }
        }
        XCTAssertNil(try copy.handoff(tokenHash: [UInt8](repeating: 9, count: 32)), "expired: left out")
        XCTAssertNotNil(try sqliteStore.reader(loop: 0).handoff(tokenHash: [UInt8](repeating: 9, count: 32)))
        for id in ["biq_open_1", "biq_open_2", "biq_open_3", "biq_open_old", "biq_open_n5"] {
            try same(id) { try $0.openEvent(id: id) }
        }
        for key in ["open_a1", "key_b2", "open_c3", "key_old", "open_n3", "none"] {
            try same("event \(key)") { try $0.openEvent(app: Fixture.appId, eventId: key) }
            try same("hash of \(key)") { try $0.openEvent(app: Fixture.appId, idempotencyKeyHash: SHA256.hash(key)) }
            try same("lookup \(key)") {
                try $0.openEvent(
                    app: Fixture.appId, eventId: "open_new", idempotencyKey: key, keyHash: SHA256.hash(key))
            }
        }
        for instance in ["install_a", "install_b"] {
            try same(instance) { try $0.appInstance(app: Fixture.appId, instance: instance) }
        }
        try same("analytics") { try $0.analytics(app: Fixture.appId, since: 0, recent: 20) }
        try same("analytics of an hour") { try $0.analytics(app: Fixture.appId, since: now - 3_600_000, recent: 3) }
        for link in [Fixture.linkId, "l"] {
            try same("link analytics of \(link)") {
                try $0.linkAnalytics(
                    link: link, fromDay: LinkAnalytics.day(of: Self.oldAt), throughDay: LinkAnalytics.day(of: now))
            }
        }

        // Row for row what PostgreSQL's own transaction wrote for the same writes (the
        // reference database), open_event_keys and the consumed click included.
        for table in CopyTable.targetTables {
            let filter = ["handoffs", "console_sessions"].contains(table) ? " WHERE expires_at > \(now)" : ""
            XCTAssertEqual(try rowsText(target, table, filter), try rowsText(reader.db, table, filter), table)
        }

        // The days of the data have partitions, the gaps between them none, and the coming days too.
        let days = try PGPartitions.days(on: target)
        let today = PGPartitions.day(of: now)
        for table in PGPartitions.tables {
            let made = days[table] ?? []
            XCTAssertTrue(made.contains(PGPartitions.day(of: Self.oldAt)), table)
            XCTAssertFalse(made.contains(PGPartitions.day(of: Self.oldAt) + 1), table)
            XCTAssertTrue(made.isSuperset(of: (today - 1)...(today + PGPartitions.daysAhead)), table)
        }

        // The keys hold the idempotency rules for new writes as on the edge's own rows.
        let tx = PGTransaction(db: target)
        tx.deferInserts = false
        let fresh = "biq_open_new"
        for (eventId, key, expected) in [
            ("open_b2", "open_b2", StoreConflict.eventId), ("open_x", "key_b2", .idempotencyKey),
            ("open_y", "open_a1", .idempotencyKey),
        ] {
            tx.beginBatch(now: now)
            try target.execute("BEGIN")
            let event = Fixture.open(id: fresh, eventId: eventId, idempotencyKeyHash: SHA256.hash(key), at: now)
            XCTAssertThrowsError(try tx.insertOpenEvent(event, idempotencyKey: key)) { error in
                XCTAssertEqual(error as? StoreError, .conflict(expected), "\(eventId) / \(key)")
            }
            try target.execute("ROLLBACK")
        }
    }

    func testANonEmptyTargetIsRefusedAndLeftAsItWas() throws {
        try sqliteStore.writeAndWait(Self.populate(now: now))
        // An edge that started on the database once has made its signing key.
        try inTransaction { tx in
            try tx.putSigningKey(SigningKeyRecord(kid: "k9", publicKey: [1], secretKey: [2], createdAt: 1))
        }
        let settings = try PGConnectionSettings(database.url)
        XCTAssertThrowsError(try StoreCopy.run(sqlitePath: try sqliteStore.path, to: settings, now: now)) { error in
            XCTAssertEqual(error as? StoreCopyError, .targetNotEmpty(["signing_keys"]))
            XCTAssertTrue("\(error)".contains("not empty"), "\(error)")
        }
        XCTAssertEqual(try integer("SELECT count(*) FROM signing_keys"), 1)
        for table in CopyTable.targetTables where table != "signing_keys" {
            XCTAssertEqual(try integer("SELECT count(*) FROM \(table)"), 0, table)
        }
    }

    /// SQLite keeps a NUL in text; PostgreSQL refuses it: open events, copied last, fail
    /// after every other table went in.
    private func breakAnOpenEvent() throws {
        try sqliteStore.writeAndWait { tx in
            var event = Fixture.open(id: "biq_open_nul", eventId: "open_nul", at: PGTestCase.now)
            event.sdkVersion = "1.0\u{0}"
            try tx.insertOpenEvent(event)
        }
    }

    private func assertFailsMidCopy(into settings: PGConnectionSettings) throws {
        XCTAssertThrowsError(
            try StoreCopy.run(sqlitePath: try sqliteStore.path, to: settings, now: now, batchSize: 3)
        ) { error in
            guard case .copying("open_events", _)? = error as? StoreCopyError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".hasPrefix("while copying open_events: "), "\(error)")
            XCTAssertTrue("\(error)".contains("nothing was written"), "\(error)")
        }
    }

    /// The relations of the database's public schema (tables, partitions, indexes,
    /// sequences), with the schema's version when it has one.
    private func shape(_ settings: PGConnectionSettings) throws -> [String] {
        let connection = try PGConnection.connect(settings)
        let rows = try connection.run(
            "t_shape",
            "SELECT c.relname || ' ' || c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = 'public' ORDER BY 1")
        var out = (0..<rows.rowCount).map { rows.text($0, 0) }
        if out.contains("biqli_schema r") {
            out.append("version \(try PGMigrations.version(connection))")
        }
        return out
    }

    func testAFailureMidCopyLeavesTheTargetEmpty() throws {
        try sqliteStore.writeAndWait(Self.populate(now: now))
        try breakAnOpenEvent()
        let settings = try PGConnectionSettings(database.url)
        let before = try shape(settings)
        try assertFailsMidCopy(into: settings)
        for table in CopyTable.targetTables {
            XCTAssertEqual(try integer("SELECT count(*) FROM \(table)"), 0, table)
        }
        XCTAssertEqual(try shape(settings), before, "not even a day partition of the data's")
    }

    func testAFailureMidCopyLeavesANewDatabaseWithoutATableAndASecondRunCopies() throws {
        try sqliteStore.writeAndWait(Self.populate(now: now))
        try breakAnOpenEvent()
        let settings = try makeTarget()
        try assertFailsMidCopy(into: settings)
        XCTAssertEqual(try shape(settings), [], "the schema went with the rows")
        // The cause mended, the same command copies.
        let file = try SQLiteConnection.open(
            path: try sqliteStore.path, create: false, busyTimeoutMilliseconds: 5_000, cacheKiB: 1_024,
            queryOnly: false)
        try file.exec("UPDATE open_events SET sdk_version = '1.0' WHERE id = 'biq_open_nul'")
        file.close()
        let report = try StoreCopy.run(sqlitePath: try sqliteStore.path, to: settings, now: now, batchSize: 3)
        XCTAssertEqual(report.tables.first { $0.table == "open_events" }?.copied, 11)
        XCTAssertTrue(try shape(settings).contains("version \(PGMigrations.latestVersion)"))
    }

    func testAFailureMidCopyLeavesAnOlderSchemaAtItsVersion() throws {
        try sqliteStore.writeAndWait(Self.populate(now: now))
        try breakAnOpenEvent()
        let settings = try makeTarget()
        // An edge of an older release made the schema, and nothing used it.
        try PGMigrations.apply(on: try PGConnection.connect(settings), migrations: Array(PGMigrations.all.prefix(5)))
        let before = try shape(settings)
        XCTAssertTrue(before.contains("version 5"), "\(before)")
        try assertFailsMidCopy(into: settings)
        XCTAssertEqual(try shape(settings), before, "the later steps went with the rows")
    }

    /// Every row of `table` as PostgreSQL prints it, in byte order: equal texts, equal rows.
    private func rowsText(_ connection: PGConnection, _ table: String, _ filter: String) throws -> String {
        let sql = """
            SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text COLLATE "C"), '')
            FROM (SELECT * FROM \(table)\(filter)) t
            """
        return try connection.run("rows_\(table)", sql).text(0, 0)
    }
}
