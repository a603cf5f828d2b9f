import Foundation

/// Frozen databases of every released schema version: the exact DDL of that
/// version plus a few rows, ending with its `PRAGMA user_version`.
///
/// When the schema moves to version N+1, add `SchemaFixtures.vN1` here (a copy of
/// the new DDL as it ships, with rows) and keep every older fixture unchanged:
/// `MigrationTests` opens each one with the current binary and checks that the
/// upgrade keeps the rows and ends at the same schema as a fresh file.
enum SchemaFixtures {
    static let all: [(version: Int, sql: String)] = [
        (1, v1),
        (2, v2),
        (3, v3),
        (4, v4),
        (5, v5),
        (6, v6),
        (7, v7),
        (8, v8),
        (9, v9),
        (10, v10),
        (11, v11),
        (12, v12),
        (13, v13),
        (14, v14),
        (15, v15),
        (16, v16),
        (17, v17),
        (18, v18),
    ]

    /// The rows every fixture holds, as the current model reads them.
    static let host = "fixture.example.com"
    static let appId = "biq_mapp_01HFIXTURE0000000000000000"
    static let linkId = "biq_lnk_01HFIXTURE0000000000000000"
    static let browserKeyId = "bk_01HFIXTURE0000000000000000"

    static let v1 = """
        CREATE TABLE secret_keys (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            key_hash BLOB NOT NULL UNIQUE,
            hint TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        );

        CREATE TABLE domains (
            hostname TEXT PRIMARY KEY NOT NULL,
            verified INTEGER NOT NULL,
            deep_view_enabled INTEGER NOT NULL,
            root_url TEXT,
            not_found_url TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE mobile_apps (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            enabled INTEGER NOT NULL,
            icon_url TEXT,
            ios TEXT,
            android TEXT,
            handoff_lifetime_seconds INTEGER NOT NULL,
            key_overlap_seconds INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL
        ) WITHOUT ROWID;

        CREATE TABLE app_domains (
            app_id TEXT NOT NULL REFERENCES mobile_apps(id) ON DELETE CASCADE,
            hostname TEXT NOT NULL REFERENCES domains(hostname) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            PRIMARY KEY (app_id, hostname)
        ) WITHOUT ROWID;
        CREATE INDEX app_domains_hostname ON app_domains(hostname);

        CREATE TABLE publishable_keys (
            id TEXT PRIMARY KEY NOT NULL,
            app_id TEXT NOT NULL,
            key_hash BLOB NOT NULL UNIQUE,
            hint TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            revoked_at INTEGER
        );
        CREATE INDEX publishable_keys_app ON publishable_keys(app_id, created_at);

        CREATE TABLE links (
            id TEXT PRIMARY KEY NOT NULL,
            domain TEXT NOT NULL REFERENCES domains(hostname) ON DELETE CASCADE,
            key TEXT NOT NULL,
            url TEXT NOT NULL,
            enabled INTEGER NOT NULL,
            app_id TEXT REFERENCES mobile_apps(id),
            route TEXT,
            referral_code TEXT,
            metadata TEXT,
            dynamic_keys TEXT,
            deep_view INTEGER,
            has_preview INTEGER NOT NULL,
            preview_title TEXT,
            preview_description TEXT,
            preview_image_url TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE (domain, key)
        );
        CREATE INDEX links_app ON links(app_id);

        CREATE TABLE clicks (
            id TEXT PRIMARY KEY NOT NULL,
            link_id TEXT NOT NULL,
            app_id TEXT,
            domain TEXT NOT NULL,
            at INTEGER NOT NULL,
            kind TEXT NOT NULL,
            platform TEXT NOT NULL,
            in_app_browser TEXT,
            dynamic TEXT,
            source_hash BLOB,
            os_version TEXT,
            consumed_by_open TEXT
        ) WITHOUT ROWID;
        CREATE INDEX clicks_probabilistic ON clicks(app_id, domain, source_hash, at)
            WHERE source_hash IS NOT NULL AND consumed_by_open IS NULL;

        CREATE TABLE click_counts (
            app_id TEXT NOT NULL,
            hour INTEGER NOT NULL,
            platform TEXT NOT NULL,
            kind TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (app_id, hour, platform, kind)
        ) WITHOUT ROWID;

        CREATE TABLE handoffs (
            token_hash BLOB PRIMARY KEY NOT NULL,
            click_id TEXT NOT NULL,
            app_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            link_id TEXT NOT NULL,
            short_url TEXT NOT NULL,
            route TEXT NOT NULL,
            referral_code TEXT,
            metadata TEXT NOT NULL,
            dynamic TEXT,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            claimed_instance TEXT,
            claimed_open TEXT
        ) WITHOUT ROWID;

        CREATE TABLE app_instances (
            app_id TEXT NOT NULL,
            instance_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            first_open_id TEXT,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (app_id, instance_id)
        ) WITHOUT ROWID;

        CREATE TABLE open_events (
            id TEXT NOT NULL UNIQUE,
            app_id TEXT NOT NULL,
            instance_id TEXT NOT NULL,
            event_id TEXT NOT NULL,
            idempotency_key_hash BLOB,
            request_hash BLOB NOT NULL,
            platform TEXT NOT NULL,
            matched_by TEXT NOT NULL,
            first_open INTEGER NOT NULL,
            sdk_version TEXT NOT NULL,
            link_id TEXT,
            click_id TEXT,
            at INTEGER NOT NULL,
            stored_response BLOB NOT NULL,
            UNIQUE (app_id, event_id)
        );
        CREATE UNIQUE INDEX open_events_idempotency ON open_events(app_id, idempotency_key_hash)
            WHERE length(idempotency_key_hash) > 0;
        CREATE INDEX open_events_app_at ON open_events(app_id, at);

        CREATE TABLE idempotency_records (
            scope TEXT NOT NULL,
            key_hash BLOB NOT NULL,
            request_hash BLOB NOT NULL,
            status INTEGER NOT NULL,
            body BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (scope, key_hash)
        ) WITHOUT ROWID;
        CREATE INDEX idempotency_records_created ON idempotency_records(created_at);

        CREATE TABLE signing_keys (
            kid TEXT PRIMARY KEY NOT NULL,
            public_key BLOB NOT NULL,
            secret_key BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            retired_at INTEGER,
            publish_until INTEGER
        ) WITHOUT ROWID;

        INSERT INTO domains VALUES ('fixture.example.com', 1, 1, NULL, NULL, 1, 2);
        INSERT INTO mobile_apps VALUES ('biq_mapp_01HFIXTURE0000000000000000', 'Fixture', 1, NULL,
            '{"teamId":"ABCDE12345","bundleId":"com.fixture","appStoreId":null,"testFlightUrl":null,"fallbackUrl":null,"probabilisticFallback":true,"probabilisticWindowMinutes":30,"sdkEnabled":true,"webCredentials":false,"appClipBundleId":null}',
            NULL, 86400, 604800, 1, 2);
        INSERT INTO app_domains VALUES ('biq_mapp_01HFIXTURE0000000000000000', 'fixture.example.com', 0);
        INSERT INTO links VALUES ('biq_lnk_01HFIXTURE0000000000000000', 'fixture.example.com', 'go',
            'https://fixture.example.com/web', 1, 'biq_mapp_01HFIXTURE0000000000000000', '/go', NULL, '{}', '["ref"]', 1,
            0, NULL, NULL, NULL, 1, 2);
        INSERT INTO clicks VALUES ('biq_clk_fixture', 'biq_lnk_01HFIXTURE0000000000000000',
            'biq_mapp_01HFIXTURE0000000000000000', 'fixture.example.com', 1000, 'deep_view', 'ios', NULL,
            '[["ref","A"]]', X'0102', '17.4', NULL);
        INSERT INTO click_counts VALUES ('biq_mapp_01HFIXTURE0000000000000000', 0, 'ios', 'deep_view', 1);
        INSERT INTO open_events VALUES ('biq_open_fixture', 'biq_mapp_01HFIXTURE0000000000000000', 'install_fixture',
            'evt_fixture', NULL, X'01', 'ios', 'none', 1, '1.0.0', NULL, NULL, 2000, X'7B7D');
        PRAGMA user_version = 1;
        """

    /// Version 2: version 1 without `clicks_probabilistic`.
    static let v2 =
        v1
        .replacingOccurrences(
            of: """
                CREATE INDEX clicks_probabilistic ON clicks(app_id, domain, source_hash, at)
                    WHERE source_hash IS NOT NULL AND consumed_by_open IS NULL;
                """, with: ""
        )
        .replacingOccurrences(of: "PRAGMA user_version = 1;", with: "PRAGMA user_version = 2;")

    /// Version 3: `clicks` as a rowid table without an index (rebuilt by the migration,
    /// hence the name SQLite gives it after `ALTER TABLE ... RENAME`).
    static let v3 =
        v2
        .replacingOccurrences(
            of: """
                    consumed_by_open TEXT
                ) WITHOUT ROWID;
                """,
            with: """
                    consumed_by_open TEXT
                );
                """
        )
        .replacingOccurrences(
            of: """
                CREATE TABLE clicks (
                    id TEXT PRIMARY KEY NOT NULL,
                """,
            with: """
                CREATE TABLE "clicks" (
                    id TEXT NOT NULL,
                """
        )
        .replacingOccurrences(of: "PRAGMA user_version = 2;", with: "PRAGMA user_version = 3;")

    /// Version 4: `open_events` with the receipt columns, spelled as SQLite writes
    /// `ALTER TABLE ... ADD COLUMN` into the schema (after the last column), and a
    /// receipt in the fixture's open event.
    static let v4 =
        v3
        .replacingOccurrences(
            of: """
                    stored_response BLOB NOT NULL,
                    UNIQUE (app_id, event_id)
                """,
            with: """
                    stored_response BLOB NOT NULL, receipt BLOB, receipt_expires_at INTEGER,
                    UNIQUE (app_id, event_id)
                """
        )
        .replacingOccurrences(of: "2000, X'7B7D');", with: "2000, X'7B7D', X'6A7773', 602000);")
        .replacingOccurrences(of: "PRAGMA user_version = 3;", with: "PRAGMA user_version = 4;")

    /// Version 5: `clicks.country` (spelled as `ALTER TABLE ... ADD COLUMN` writes it), the
    /// links' daily counts, and rows in them: the fixture's click counted with its country
    /// and three exact-handoff first opens of its link.
    static let v5 =
        v4
        .replacingOccurrences(
            of: """
                    consumed_by_open TEXT
                );
                """,
            with: """
                    consumed_by_open TEXT
                , country TEXT);
                """
        )
        .replacingOccurrences(
            of: """
                '[["ref","A"]]', X'0102', '17.4', NULL);
                """,
            with: """
                '[["ref","A"]]', X'0102', '17.4', NULL, 'DE');
                """
        )
        .replacingOccurrences(
            of: "PRAGMA user_version = 4;",
            with: """
                CREATE TABLE link_click_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    platform TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    in_app_browser TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, platform, kind, in_app_browser)
                ) WITHOUT ROWID;
                CREATE INDEX link_click_counts_day ON link_click_counts(day);

                CREATE TABLE link_country_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    country TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, country)
                ) WITHOUT ROWID;
                CREATE INDEX link_country_counts_day ON link_country_counts(day);

                CREATE TABLE link_open_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    matched_by TEXT NOT NULL,
                    first_open INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, matched_by, first_open)
                ) WITHOUT ROWID;
                CREATE INDEX link_open_counts_day ON link_open_counts(day);

                INSERT INTO link_click_counts VALUES ('biq_lnk_01HFIXTURE0000000000000000', 0, 'ios', 'deep_view', '', 1);
                INSERT INTO link_country_counts VALUES ('biq_lnk_01HFIXTURE0000000000000000', 0, 'DE', 1);
                INSERT INTO link_open_counts VALUES ('biq_lnk_01HFIXTURE0000000000000000', 0, 'exact_handoff', 1, 3);
                PRAGMA user_version = 5;
                """)

    /// Version 6: ACME's tables (`SchemaV6`), with a certificate, an account, a challenge
    /// and an attempt.
    static let v6 = v5.replacingOccurrences(
        of: "PRAGMA user_version = 5;",
        with: """
            CREATE TABLE certificates (
                hostname TEXT PRIMARY KEY NOT NULL,
                status TEXT NOT NULL,
                chain_pem TEXT,
                key_pem TEXT,
                not_before INTEGER,
                not_after INTEGER,
                issuer TEXT,
                renewal_at INTEGER,
                renewal_info_check_at INTEGER,
                last_error_type TEXT,
                last_error_detail TEXT,
                failures INTEGER NOT NULL DEFAULT 0,
                next_attempt_at INTEGER,
                lease_node TEXT,
                lease_until INTEGER,
                updated_at INTEGER NOT NULL
            );

            CREATE TABLE acme_accounts (
                directory_url TEXT PRIMARY KEY NOT NULL,
                key_pem TEXT NOT NULL,
                account_url TEXT,
                created_at INTEGER NOT NULL
            );

            CREATE TABLE acme_challenges (
                token TEXT PRIMARY KEY NOT NULL,
                hostname TEXT NOT NULL,
                kind TEXT NOT NULL,
                key_authorization TEXT NOT NULL,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;

            CREATE TABLE certificate_orders (
                id INTEGER PRIMARY KEY,
                hostname TEXT NOT NULL,
                node TEXT NOT NULL,
                started_at INTEGER NOT NULL,
                finished_at INTEGER NOT NULL,
                result TEXT NOT NULL,
                problem_type TEXT,
                detail TEXT
            );
            CREATE INDEX certificate_orders_by_hostname ON certificate_orders (hostname, id);

            CREATE TABLE acme_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                version INTEGER NOT NULL
            );
            INSERT INTO acme_state (id, version) VALUES (1, 0);
            INSERT INTO certificates VALUES ('fixture.example.com', 'valid', 'chain', 'key', 1, 3, 'CN=Fixture CA', 2,
                NULL, NULL, NULL, 0, NULL, NULL, NULL, 1);
            INSERT INTO acme_accounts VALUES ('https://ca.test/dir', 'account key', 'https://ca.test/acct/1', 1);
            INSERT INTO acme_challenges VALUES ('tok', 'fixture.example.com', 'http-01', 'tok.thumb', 9);
            INSERT INTO certificate_orders VALUES (1, 'fixture.example.com', 'node', 1, 1, 'issued', NULL, NULL);
            UPDATE acme_state SET version = 4;
            PRAGMA user_version = 6;
            """)

    /// Version 7: the console's sessions (one signed-in operator of a key the fixture
    /// does not hold: the session reads as nothing, the row stays), and the indexes of its
    /// reads.
    static let v7 =
        v6
        .replacingOccurrences(
            of: "PRAGMA user_version = 6;",
            with: """
                CREATE TABLE console_sessions (
                    token_hash BLOB PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    secret_key_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX console_sessions_expires ON console_sessions(expires_at);

                CREATE INDEX clicks_link ON clicks(link_id, at);
                CREATE INDEX open_events_link ON open_events(link_id, at) WHERE link_id IS NOT NULL;
                CREATE INDEX links_key ON links(key, id);
                CREATE INDEX links_domain_id ON links(domain, id);

                INSERT INTO console_sessions VALUES (X'0A0B', 'session', 'sk_fixture', 1000, 2000);
                PRAGMA user_version = 7;
                """)

    /// Version 8: a receipt stored unsigned (decision 0023); the fixture's event keeps its
    /// signed one.
    static let v8 =
        v7
        .replacingOccurrences(
            of: "PRAGMA user_version = 7;",
            with: """
                ALTER TABLE open_events ADD COLUMN receipt_input BLOB;
                PRAGMA user_version = 8;
                """)

    /// Version 9: conversions (decision 0024). The fixture's key stays without scopes (every
    /// power); one customer with a lead on the fixture's link.
    static let v9 =
        v8
        .replacingOccurrences(
            of: "PRAGMA user_version = 8;",
            with: """
                ALTER TABLE secret_keys ADD COLUMN scopes TEXT;
                CREATE TABLE customers (
                    id TEXT PRIMARY KEY NOT NULL,
                    external_id TEXT NOT NULL UNIQUE,
                    name TEXT,
                    email TEXT,
                    avatar TEXT,
                    click_id TEXT,
                    link_id TEXT,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                CREATE TABLE conversion_events (
                    id TEXT PRIMARY KEY NOT NULL,
                    type TEXT NOT NULL,
                    event_id TEXT NOT NULL UNIQUE,
                    idempotency_key_hash BLOB NOT NULL UNIQUE,
                    request_hash BLOB NOT NULL,
                    event_name TEXT NOT NULL,
                    customer_id TEXT NOT NULL,
                    click_id TEXT,
                    link_id TEXT,
                    amount INTEGER,
                    currency TEXT,
                    payment_processor TEXT,
                    invoice_id TEXT,
                    metadata TEXT,
                    occurred_at INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    response BLOB NOT NULL
                );
                CREATE INDEX conversion_events_customer ON conversion_events(customer_id, occurred_at);
                CREATE INDEX conversion_events_link ON conversion_events(link_id, created_at, id) WHERE link_id IS NOT NULL;
                CREATE INDEX conversion_events_created ON conversion_events(created_at, id);
                INSERT INTO customers VALUES ('biq_cus_01HFIXTURE0000000000000000', 'fixture-customer', NULL, NULL,
                    NULL, 'biq_clk_01HFIXTURE0000000000000000', '\(linkId)', 1000, 1000);
                INSERT INTO conversion_events VALUES ('biq_lev_01HFIXTURE0000000000000000', 'lead', 'evt_fixture',
                    X'0C0D', X'0E0F', 'Sign up', 'biq_cus_01HFIXTURE0000000000000000',
                    'biq_clk_01HFIXTURE0000000000000000', '\(linkId)', NULL, NULL, NULL, NULL, NULL, 1000, 1000, X'7B7D');
                PRAGMA user_version = 9;
                """)

    /// Version 10: conversion tracking switches. The fixture's link says nothing (it
    /// follows its domain), its domain keeps the default (off).
    static let v10 =
        v9
        .replacingOccurrences(
            of: "PRAGMA user_version = 9;",
            with: """
                ALTER TABLE links ADD COLUMN track_conversions INTEGER;
                ALTER TABLE domains ADD COLUMN track_conversions INTEGER NOT NULL DEFAULT 0;
                PRAGMA user_version = 10;
                """)

    /// Version 11: client-side click tracking: a browser key and the settings row.
    static let v11 =
        v10
        .replacingOccurrences(
            of: "PRAGMA user_version = 10;",
            with: """
                CREATE TABLE browser_keys (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    key_hash BLOB NOT NULL UNIQUE,
                    hint TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    revoked_at INTEGER
                );
                CREATE TABLE client_click_settings (
                    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                    enabled INTEGER NOT NULL,
                    hostnames TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                INSERT INTO browser_keys VALUES ('\(browserKeyId)', 'shop', X'1011', 'abcd', 1000, NULL);
                INSERT INTO client_click_settings VALUES (1, 1, 'shop.example.com *.example.org', 1000);
                PRAGMA user_version = 11;
                """)

    /// Version 12 (webhooks): an endpoint and one pending delivery, which the upgrade keeps.
    static let v12 =
        v11
        .replacingOccurrences(
            of: "PRAGMA user_version = 11;",
            with: """
                CREATE TABLE webhook_endpoints (
                    id TEXT PRIMARY KEY NOT NULL,
                    url TEXT NOT NULL,
                    description TEXT,
                    event_types TEXT NOT NULL,
                    app_ids TEXT,
                    link_ids TEXT,
                    enabled INTEGER NOT NULL,
                    disabled_reason TEXT,
                    disabled_at INTEGER,
                    secret TEXT NOT NULL,
                    previous_secret TEXT,
                    previous_secret_expires_at INTEGER,
                    failing_since INTEGER,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                );

                CREATE TABLE webhook_outbox (
                    endpoint_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    type TEXT NOT NULL,
                    body BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL,
                    scheduled_attempts INTEGER NOT NULL,
                    schedule_started_at INTEGER NOT NULL,
                    next_attempt_at INTEGER,
                    lease_owner TEXT,
                    lease_until INTEGER,
                    last_status INTEGER,
                    last_error TEXT,
                    delivered_at INTEGER,
                    updated_at INTEGER NOT NULL,
                    PRIMARY KEY (endpoint_id, message_id)
                ) WITHOUT ROWID;
                CREATE INDEX webhook_outbox_due ON webhook_outbox(next_attempt_at, lease_until, endpoint_id, message_id, state)
                    WHERE state = 'pending';
                CREATE INDEX webhook_outbox_leased ON webhook_outbox(lease_until) WHERE lease_until IS NOT NULL;
                CREATE INDEX webhook_outbox_pending_created ON webhook_outbox(created_at) WHERE state = 'pending';

                CREATE TABLE webhook_attempts (
                    endpoint_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    number INTEGER NOT NULL,
                    at INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL,
                    status INTEGER,
                    error TEXT,
                    answer TEXT,
                    node TEXT NOT NULL,
                    PRIMARY KEY (endpoint_id, message_id, number)
                ) WITHOUT ROWID;
                INSERT INTO webhook_endpoints VALUES ('biq_whk_01HFIXTURE0000000000000000', 'https://hooks.example.com/in',
                    NULL, ' open.created ', NULL, NULL, 1, NULL, NULL, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', NULL, NULL,
                    NULL, 1000, 1000);
                INSERT INTO webhook_outbox VALUES ('biq_whk_01HFIXTURE0000000000000000', 'msg_01HFIXTURE0000000000000000',
                    'open.created', X'7B7D', 1000, 'pending', 0, 0, 1000, 1000, NULL, NULL, NULL, NULL, NULL, 1000);
                PRAGMA user_version = 12;
                """)

    /// Version 13: conversion counts per link and day, holding the version 9 fixture's lead.
    static let v13 =
        v12
        .replacingOccurrences(
            of: "PRAGMA user_version = 12;",
            with: """
                CREATE TABLE link_conversion_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    type TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    amount INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, type, currency)
                ) WITHOUT ROWID;
                CREATE INDEX link_conversion_counts_day ON link_conversion_counts(day);
                INSERT INTO link_conversion_counts VALUES ('\(linkId)', 0, 'lead', '', 1, 0);
                PRAGMA user_version = 13;
                """)

    /// Version 14: referring sites per link and day, the fixture's click from t.co.
    static let v14 =
        v13
        .replacingOccurrences(
            of: "PRAGMA user_version = 13;",
            with: """
                CREATE TABLE link_referrer_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    referrer TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, referrer)
                ) WITHOUT ROWID;
                CREATE INDEX link_referrer_counts_day ON link_referrer_counts(day);
                INSERT INTO link_referrer_counts VALUES ('\(linkId)', 0, 't.co', 1);
                PRAGMA user_version = 14;
                """)

    /// Version 15: a sale's sum past 64 bits, in two columns (1,026 sales of 2^53 - 1 VND).
    static let v15 =
        v14
        .replacingOccurrences(
            of: "PRAGMA user_version = 14;",
            with: """
                ALTER TABLE link_conversion_counts ADD COLUMN amount_high INTEGER NOT NULL DEFAULT 0;
                INSERT INTO link_conversion_counts VALUES ('\(linkId)', 0, 'sale', 'vnd', 1026, 241386435364256766, 9);
                PRAGMA user_version = 15;
                """)

    /// Version 16 (issue 33): the test events' partial index and the registry of the keys that
    /// seal the webhooks' signing secrets, with one key's id.
    static let v16 =
        v15
        .replacingOccurrences(
            of: "PRAGMA user_version = 15;",
            with: """
                CREATE INDEX webhook_outbox_tests ON webhook_outbox(endpoint_id, message_id) WHERE type = 'webhook.test';
                CREATE TABLE webhook_secret_keys (
                    id TEXT PRIMARY KEY NOT NULL,
                    created_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO webhook_secret_keys VALUES ('wk_fixture', 1000);
                PRAGMA user_version = 16;
                """)

    /// Version 17 (issue 35): a link's options, external id and tags; the click's variant;
    /// the domain's `passQuery`; the counts per arm. The fixture's link gets a rule, an
    /// external id and a tag, its click an arm, counted with two sales of that arm.
    static let v17 =
        v16
        .replacingOccurrences(
            of: "PRAGMA user_version = 16;",
            with: """
                ALTER TABLE links ADD COLUMN options TEXT;
                ALTER TABLE links ADD COLUMN external_id TEXT;
                CREATE UNIQUE INDEX links_external_id ON links(external_id) WHERE external_id IS NOT NULL;
                CREATE TABLE tags (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    name_key TEXT NOT NULL UNIQUE,
                    color TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE link_tags (
                    link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
                    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
                    PRIMARY KEY (link_id, tag_id)
                ) WITHOUT ROWID;
                CREATE INDEX link_tags_tag ON link_tags(tag_id, link_id);
                ALTER TABLE clicks ADD COLUMN variant INTEGER;
                ALTER TABLE domains ADD COLUMN pass_query INTEGER NOT NULL DEFAULT 0;
                UPDATE links SET options = '{"rules":[{"if":{"countries":["DE"]},"url":"https://example.com/de"}]}',
                    external_id = 'crm-1' WHERE id = '\(linkId)';
                INSERT INTO tags VALUES ('biq_tag_fixture', 'Fixture', 'fixture', 'teal', 1000, 1000);
                INSERT INTO link_tags VALUES ('\(linkId)', 'biq_tag_fixture');
                UPDATE clicks SET variant = 1 WHERE id = 'biq_clk_fixture';
                ALTER TABLE conversion_events ADD COLUMN variant INTEGER;
                CREATE TABLE link_variant_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    variant INTEGER NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, variant)
                ) WITHOUT ROWID;
                CREATE INDEX link_variant_counts_day ON link_variant_counts(day);
                CREATE TABLE link_variant_conversion_counts (
                    link_id TEXT NOT NULL,
                    day INTEGER NOT NULL,
                    variant INTEGER NOT NULL,
                    type TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    amount INTEGER NOT NULL,
                    amount_high INTEGER NOT NULL,
                    PRIMARY KEY (link_id, day, variant, type, currency)
                ) WITHOUT ROWID;
                INSERT INTO link_variant_counts VALUES ('\(linkId)', 0, 1, 1);
                INSERT INTO link_variant_conversion_counts VALUES ('\(linkId)', 0, 1, 'sale', 'eur', 2, 5000, 0);
                PRAGMA user_version = 17;
                """)

    /// Version 18: the workspace's switches of the in-app escapes and a domain's alternate
    /// hostname (issue 36, decision 0033).
    static let v18 =
        v17
        .replacingOccurrences(
            of: "PRAGMA user_version = 17;",
            with: """
                CREATE TABLE in_app_escape_settings (
                    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
                    switches TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
                );
                ALTER TABLE domains ADD COLUMN alternate_hostname TEXT;
                CREATE UNIQUE INDEX domains_alternate_hostname ON domains(alternate_hostname)
                    WHERE alternate_hostname IS NOT NULL;
                INSERT INTO in_app_escape_settings VALUES (1, '{"*":["safari"],"tiktok":[]}', 1000);
                UPDATE domains SET alternate_hostname = 'open.fixture.example.com' WHERE hostname = '\(host)';
                PRAGMA user_version = 18;
                """)
}
