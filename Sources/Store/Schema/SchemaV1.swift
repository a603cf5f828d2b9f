import Model

/// Schema version 1. Forward-only: once released, never edit this text; add a
/// `SchemaV2` with the `ALTER`/`CREATE` statements that lead from here instead.
///
/// Conventions: times are INTEGER milliseconds since the epoch; hashes, tokens'
/// hashes and opaque bodies are BLOBs; enums are their wire spelling as TEXT;
/// nested settings are JSON TEXT written by Core's `JSONWriter`.
///
/// Foreign keys tie the configuration tables together (links to domains and
/// apps, app-domain attachments). The event tables (clicks, handoffs, opens,
/// instances) refer to other rows by id without foreign keys on purpose: they
/// are append-mostly logs written on the hot path and pruned by age, so an
/// insert must not pay for parent look-ups and a prune must not cascade.
///
/// The visit path writes a click and usually a handoff per visit, so those two
/// tables have as few B-trees as possible (decision 0007): `clicks` is keyed by
/// its id (`biq_clk_` + ULID, so in time order: retention deletes an id range)
/// and has only the partial index the probabilistic match needs; `handoffs` is
/// keyed by its time-ordered `HandoffKey` (expiry pruning walks a key range).
/// Analytics read `click_counts` (clicks per app, UTC hour, platform and kind;
/// `hour` is milliseconds / 3,600,000), which the writer updates once per batch.
///
/// The resolver writes one open event per resolution (decision 0008): a rowid
/// table (appended in time order) with the unique `(app_id, event_id)` index the
/// idempotency rule needs and `(app_id, at)` for analytics and retention.
/// `idempotency_key_hash` is NULL without a key, an empty blob when the key is
/// the eventId (what the official SDKs send: no second random index entry), and
/// the key's SHA-256 otherwise; only the latter are in the partial unique index.
enum SchemaV1 {
    static let sql = """
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
        """
}
