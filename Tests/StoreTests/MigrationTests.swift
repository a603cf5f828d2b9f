import Core
import Model
import XCTest

@testable import Store

/// Migrations from an empty file and from every released schema version; refusal
/// of a newer file; an upgrade that fails changes nothing.
final class MigrationTests: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUp() { directory = TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    private func rawConnection() throws -> SQLiteConnection {
        try SQLiteConnection.open(
            path: directory.databasePath, create: true, busyTimeoutMilliseconds: 1_000, cacheKiB: 1_024,
            queryOnly: false)
    }

    /// `type name tbl_name sql` of every schema object, for comparing two files.
    private func schema(of db: SQLiteConnection) throws -> [String] {
        try db.queryAll("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") { s in
            [s.text(0), s.text(1), s.text(2), s.optionalText(3) ?? ""].joined(separator: "|")
        }
    }

    func testMigrationsAreNumberedFromOneWithoutGaps() {
        XCTAssertEqual(Migrations.all.map(\.version), Array(1...Migrations.latestVersion))
        XCTAssertEqual(SQLiteStore.supportedSchemaVersion, Migrations.latestVersion)
    }

    func testEveryReleasedVersionHasAFixture() {
        XCTAssertEqual(SchemaFixtures.all.map(\.version), Migrations.all.map(\.version))
    }

    func testAnEmptyFileIsMigratedToTheLatestVersion() throws {
        let store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
        store.close()
        let db = try rawConnection()
        XCTAssertEqual(try db.integer("PRAGMA user_version"), Int64(Migrations.latestVersion))
        XCTAssertEqual(try db.queryFirst("PRAGMA journal_mode") { $0.text(0) }, "wal")
        let tables = try db.queryAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
        XCTAssertEqual(
            tables,
            [
                "acme_accounts", "acme_challenges", "acme_state", "app_domains", "app_instances", "browser_keys",
                "certificate_orders", "certificates", "click_counts", "clicks", "client_click_settings",
                "console_sessions",
                "conversion_events", "customers", "domains", "handoffs", "idempotency_records",
                "in_app_escape_settings",
                "link_click_counts",
                "link_conversion_counts", "link_country_counts", "link_open_counts", "link_referrer_counts",
                "link_tags", "link_variant_conversion_counts", "link_variant_counts", "links", "mobile_apps",
                "open_events",
                "publishable_keys", "secret_keys", "signing_keys", "tags", "webhook_attempts", "webhook_endpoints",
                "webhook_outbox", "webhook_secret_keys",
            ])
        XCTAssertEqual(try db.queryAll("PRAGMA foreign_key_check") { $0.text(0) }, [])
    }

    func testEveryFixtureVersionUpgradesKeepingItsRows() throws {
        let fresh = TemporaryDirectory()
        defer { fresh.remove() }
        try SQLiteStore.open(path: fresh.databasePath, readers: 1).close()
        let freshSchema = try schema(
            of: SQLiteConnection.open(
                path: fresh.databasePath, create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 1_024,
                queryOnly: true))

        for fixture in SchemaFixtures.all {
            directory.remove()
            directory = TemporaryDirectory()
            try rawConnection().exec(fixture.sql)

            let store = try SQLiteStore.open(path: directory.databasePath, readers: 1)
            let reader = store.reader(loop: 0)
            let context = "from version \(fixture.version)"
            XCTAssertEqual(try reader.domain(SchemaFixtures.host)?.verified, true, context)
            let app = try reader.app(SchemaFixtures.appId)
            XCTAssertEqual(app?.domains, [SchemaFixtures.host], context)
            XCTAssertEqual(app?.ios?.probabilisticWindowMinutes, 30, context)
            let link = try reader.link(host: SchemaFixtures.host, key: "go")
            XCTAssertEqual(link?.id, SchemaFixtures.linkId, context)
            XCTAssertEqual(link?.mobile?.dynamicKeys, ["ref"], context)
            let click = try reader.click(id: "biq_clk_fixture")
            XCTAssertEqual(click?.sourceHash, [1, 2], context)
            XCTAssertEqual(click?.dynamic.first?.1, "A", context)
            let open = try reader.openEvent(id: "biq_open_fixture")
            XCTAssertEqual(open?.storedResponse, Array("{}".utf8), context)
            // Events from before version 4 have no receipt; the version 4 fixture's has one.
            XCTAssertEqual(open?.receipt, fixture.version >= 4 ? Array("jws".utf8) : nil, context)
            XCTAssertEqual(open?.receiptExpiresAt, fixture.version >= 4 ? 602_000 : nil, context)
            XCTAssertEqual(
                try reader.analytics(app: SchemaFixtures.appId, since: 0, recent: 0).clicks,
                [.init(platform: .ios, kind: .deepView, count: 1)], context)
            // Version 5 counts the clicks already stored per link and day (without a country,
            // which older clicks never had); the version 5 fixture has its own counts.
            XCTAssertEqual(click?.country, fixture.version >= 5 ? "DE" : nil, context)
            XCTAssertEqual(
                try reader.linkAnalytics(link: SchemaFixtures.linkId, fromDay: 0, throughDay: 0),
                LinkAnalytics(
                    clicks: [.init(day: 0, platform: .ios, kind: .deepView, count: 1)],
                    countries: [.init(day: 0, country: fixture.version >= 5 ? "DE" : nil, count: 1)],
                    // Version 14 counts referring sites from then on (the version 14 fixture's own row).
                    referrers: fixture.version >= 14 ? [.init(day: 0, referrer: "t.co", count: 1)] : [],
                    opens: fixture.version >= 5
                        ? [.init(day: 0, matchedBy: .exactHandoff, firstOpen: true, count: 3)] : [],
                    // Version 13 counts the leads already stored (the version 9 fixture's); the
                    // version 15 fixture holds a sale's sum past 64 bits.
                    conversions: (fixture.version >= 9
                        ? [.init(day: 0, type: .lead, currency: nil, count: 1, amount: 0)] : [])
                        + (fixture.version >= 15
                            ? [
                                .init(
                                    day: 0, type: .sale, currency: "vnd", count: 1_026,
                                    amount: 1_026 * 9_007_199_254_740_991)
                            ]
                            : []),
                    // The version 17 fixture's counts per arm.
                    variantClicks: fixture.version >= 17 ? [.init(day: 0, variant: 1, count: 1)] : [],
                    variantConversions: fixture.version >= 17
                        ? [.init(day: 0, variant: 1, type: .sale, currency: "eur", count: 2, amount: 5000)] : []
                ), context)
            // ACME's rows (version 6) are kept; older files start without any.
            XCTAssertEqual(
                try reader.storedCertificates().map(\.issuer), fixture.version >= 6 ? ["CN=Fixture CA"] : [], context)
            XCTAssertEqual(try reader.certificatesVersion(), fixture.version >= 6 ? 4 : 0, context)
            // Client-click tracking (version 11): the fixture's key and settings; older files
            // start off, without keys.
            XCTAssertEqual(
                try reader.browserKeys().map(\.id), fixture.version >= 11 ? [SchemaFixtures.browserKeyId] : [], context)
            XCTAssertEqual(
                try reader.clientClickSettings(),
                fixture.version >= 11
                    ? ClientClickSettings(
                        enabled: true, hostnames: ["shop.example.com", "*.example.org"], updatedAt: 1000)
                    : .initial, context)
            // A link's options, tags and the click's variant (version 17): the fixture's; none before.
            XCTAssertEqual(
                link?.options,
                fixture.version >= 17
                    ? LinkOptions(
                        rules: [LinkRule(conditions: RuleConditions(countries: ["DE"]), url: "https://example.com/de")],
                        externalId: "crm-1", tagIds: ["biq_tag_fixture"]) : nil, context)
            XCTAssertEqual(click?.variant, fixture.version >= 17 ? 1 : nil, context)
            XCTAssertEqual(try reader.tags().map(\.name), fixture.version >= 17 ? ["Fixture"] : [], context)
            // A domain's alternate hostname (version 18): the fixture's; none before.
            XCTAssertEqual(
                try reader.domain(servedAt: "open.fixture.example.com")?.hostname,
                fixture.version >= 18 ? SchemaFixtures.host : nil, context)
            // The switches of the in-app escapes (version 18): the fixture's; none before.
            XCTAssertEqual(
                try reader.inAppEscapeSettings(),
                fixture.version >= 18
                    ? InAppEscapeSettings(
                        switches: InAppEscapeSwitches(["*": [.safari], "tiktok": []]), updatedAt: 1000) : .initial,
                context)
            // The keys that seal webhook secrets (version 16): the fixture's; none before.
            XCTAssertEqual(try reader.webhookSecretKeyIds(), fixture.version >= 16 ? ["wk_fixture"] : [], context)
            // The upgraded file takes new writes.
            XCTAssertNoThrow(
                try store.writeAndWait { tx in
                    try tx.insertClick(Fixture.click(id: "biq_clk_new", at: 5, host: SchemaFixtures.host))
                },
                context)
            store.close()

            let db = try rawConnection()
            XCTAssertEqual(try db.integer("PRAGMA user_version"), Int64(Migrations.latestVersion), context)
            XCTAssertEqual(try schema(of: db), freshSchema, "an upgraded file must equal a fresh one, " + context)
        }
    }

    func testANewerFileIsRefused() throws {
        try rawConnection().exec("PRAGMA user_version = \(Migrations.latestVersion + 1)")
        XCTAssertThrowsError(try SQLiteStore.open(path: directory.databasePath, readers: 1)) { error in
            XCTAssertEqual(
                error as? StoreError,
                .schemaTooNew(found: Migrations.latestVersion + 1, supported: Migrations.latestVersion))
        }
    }

    func testAFailedUpgradeLeavesThePreviousVersion() throws {
        let db = try rawConnection()
        try Migrations.apply(on: db)
        let broken =
            Migrations.all + [
                Migration(
                    version: Migrations.latestVersion + 1,
                    sql: "CREATE TABLE extra (x INTEGER); INSERT INTO no_such_table VALUES (1);")
            ]
        XCTAssertThrowsError(try Migrations.apply(on: db, migrations: broken))
        XCTAssertEqual(try db.integer("PRAGMA user_version"), Int64(Migrations.latestVersion))
        XCTAssertEqual(try db.integer("SELECT count(*) FROM sqlite_master WHERE name = 'extra'"), 0)
        XCTAssertTrue(db.isAutocommit)
    }

    func testPendingStepsRunInOrderFromTheFoundVersion() throws {
        let db = try rawConnection()
        let steps = [
            Migration(version: 1, sql: "CREATE TABLE t1 (x INTEGER);"),
            Migration(version: 2, sql: "ALTER TABLE t1 ADD COLUMN y INTEGER;"),
            Migration(version: 3, sql: "INSERT INTO t1 VALUES (1, 2);"),
        ]
        XCTAssertEqual(try Migrations.apply(on: db, migrations: Array(steps[0..<2])), 0)
        XCTAssertEqual(try Migrations.apply(on: db, migrations: steps), 2)
        XCTAssertEqual(try db.integer("PRAGMA user_version"), 3)
        XCTAssertEqual(try db.integer("SELECT y FROM t1"), 2)
    }
}
