/// PostgreSQL schema version 1. Forward-only: once released, never edit this text;
/// add a `PGSchemaV2` with the statements that lead from here instead.
///
/// The same tables and columns as the SQLite schema (so that tools and tests read
/// both alike), with PostgreSQL's types: times are `bigint` milliseconds since the
/// epoch, flags `boolean`, hashes and opaque bodies `bytea`, nested settings JSON
/// `text` written by Core's `JSONWriter`. Every constraint that carries a rule of
/// the contract has a name that `PGErrors.conflictNames` maps to the conflict the
/// callers expect.
///
/// What differs, and why:
/// - `clicks` and `open_events` are partitioned by day on `at` (`PGPartitions`):
///   retention drops whole partitions instead of deleting rows one by one.
/// - A unique index on a partitioned table must contain the partition key, so the
///   idempotency rule (one event per app and `eventId`, one per app and
///   `Idempotency-Key`) lives in `open_event_keys`, one row per key of an event:
///   `kind` 'e' with the eventId, 'k' with the key's SHA-256. Its primary key is the
///   rule; retention deletes its old rows with the events.
/// - `links.id` and `links.key` sort byte by byte (`COLLATE "C"`) whatever the
///   database's collation, as SQLite and Swift order them: link pages (`id > $1
///   ORDER BY id`) and a domain's claims (`ORDER BY key`) are then read in the
///   indexes' order. Other ordered reads name `COLLATE "C"` themselves (small tables).
/// - `store_state` holds the change counters that other processes poll when a
///   notification is lost: `catalog_version` (domains, apps, links, attachments) and
///   `keys_version` (publishable and secret keys). Statement triggers bump them and
///   send `NOTIFY biqli_changes` with the table's name, whoever writes (the edge, the
///   CLI, another node): every edge learns of every change.
enum PGSchemaV1 {
    static let sql = """
        CREATE TABLE store_state (
            id boolean PRIMARY KEY DEFAULT true CHECK (id),
            catalog_version bigint NOT NULL DEFAULT 0,
            keys_version bigint NOT NULL DEFAULT 0
        );
        INSERT INTO store_state DEFAULT VALUES;

        CREATE TABLE secret_keys (
            id text NOT NULL CONSTRAINT secret_keys_pkey PRIMARY KEY,
            name text NOT NULL,
            key_hash bytea NOT NULL CONSTRAINT secret_keys_key_hash UNIQUE,
            hint text NOT NULL,
            created_at bigint NOT NULL,
            revoked_at bigint
        );

        CREATE TABLE domains (
            hostname text NOT NULL CONSTRAINT domains_pkey PRIMARY KEY,
            verified boolean NOT NULL,
            deep_view_enabled boolean NOT NULL,
            root_url text,
            not_found_url text,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
        );

        CREATE TABLE mobile_apps (
            id text NOT NULL CONSTRAINT mobile_apps_pkey PRIMARY KEY,
            name text NOT NULL,
            enabled boolean NOT NULL,
            icon_url text,
            ios text,
            android text,
            handoff_lifetime_seconds bigint NOT NULL,
            key_overlap_seconds bigint NOT NULL,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL
        );

        CREATE TABLE app_domains (
            app_id text NOT NULL REFERENCES mobile_apps(id) ON DELETE CASCADE,
            hostname text NOT NULL REFERENCES domains(hostname) ON DELETE CASCADE,
            position bigint NOT NULL,
            CONSTRAINT app_domains_pkey PRIMARY KEY (app_id, hostname)
        );
        CREATE INDEX app_domains_hostname ON app_domains(hostname);

        CREATE TABLE publishable_keys (
            id text NOT NULL CONSTRAINT publishable_keys_pkey PRIMARY KEY,
            app_id text NOT NULL,
            key_hash bytea NOT NULL CONSTRAINT publishable_keys_key_hash UNIQUE,
            hint text NOT NULL,
            created_at bigint NOT NULL,
            expires_at bigint,
            revoked_at bigint
        );
        CREATE INDEX publishable_keys_app ON publishable_keys(app_id, created_at);

        CREATE TABLE links (
            id text COLLATE "C" NOT NULL CONSTRAINT links_pkey PRIMARY KEY,
            domain text NOT NULL REFERENCES domains(hostname) ON DELETE CASCADE,
            key text COLLATE "C" NOT NULL,
            url text NOT NULL,
            enabled boolean NOT NULL,
            app_id text REFERENCES mobile_apps(id),
            route text,
            referral_code text,
            metadata text,
            dynamic_keys text,
            deep_view boolean,
            has_preview boolean NOT NULL,
            preview_title text,
            preview_description text,
            preview_image_url text,
            created_at bigint NOT NULL,
            updated_at bigint NOT NULL,
            CONSTRAINT links_domain_key UNIQUE (domain, key)
        );
        CREATE INDEX links_app ON links(app_id);

        CREATE TABLE clicks (
            id text NOT NULL,
            link_id text NOT NULL,
            app_id text,
            domain text NOT NULL,
            at bigint NOT NULL,
            kind text NOT NULL,
            platform text NOT NULL,
            in_app_browser text,
            dynamic text,
            source_hash bytea,
            os_version text,
            consumed_by_open text
        ) PARTITION BY RANGE (at);
        CREATE INDEX clicks_id ON clicks(id);
        -- The probabilistic match's question: unused iOS clicks of an app from one address hash.
        CREATE INDEX clicks_candidates ON clicks(app_id, source_hash, at)
            WHERE source_hash IS NOT NULL AND consumed_by_open IS NULL;

        CREATE TABLE click_counts (
            app_id text NOT NULL,
            hour bigint NOT NULL,
            platform text NOT NULL,
            kind text NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT click_counts_pkey PRIMARY KEY (app_id, hour, platform, kind)
        );

        CREATE TABLE handoffs (
            token_hash bytea NOT NULL CONSTRAINT handoffs_pkey PRIMARY KEY,
            click_id text NOT NULL,
            app_id text NOT NULL,
            platform text NOT NULL,
            link_id text NOT NULL,
            short_url text NOT NULL,
            route text NOT NULL,
            referral_code text,
            metadata text NOT NULL,
            dynamic text,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            claimed_instance text,
            claimed_open text
        );

        CREATE TABLE app_instances (
            app_id text NOT NULL,
            instance_id text NOT NULL,
            platform text NOT NULL,
            first_open_id text,
            created_at bigint NOT NULL,
            CONSTRAINT app_instances_pkey PRIMARY KEY (app_id, instance_id)
        );

        CREATE TABLE open_events (
            id text NOT NULL,
            app_id text NOT NULL,
            instance_id text NOT NULL,
            event_id text NOT NULL,
            idempotency_key_hash bytea,
            request_hash bytea NOT NULL,
            platform text NOT NULL,
            matched_by text NOT NULL,
            first_open boolean NOT NULL,
            sdk_version text NOT NULL,
            link_id text,
            click_id text,
            at bigint NOT NULL,
            stored_response bytea NOT NULL,
            receipt bytea,
            receipt_expires_at bigint,
            CONSTRAINT open_events_pkey PRIMARY KEY (id, at)
        ) PARTITION BY RANGE (at);
        CREATE INDEX open_events_id ON open_events(id);
        CREATE INDEX open_events_app_at ON open_events(app_id, at);

        CREATE TABLE open_event_keys (
            app_id text NOT NULL,
            kind "char" NOT NULL,
            key bytea NOT NULL,
            open_id text NOT NULL,
            at bigint NOT NULL,
            CONSTRAINT open_event_keys_pkey PRIMARY KEY (app_id, kind, key)
        );
        CREATE INDEX open_event_keys_at ON open_event_keys(at);

        CREATE TABLE idempotency_records (
            scope text NOT NULL,
            key_hash bytea NOT NULL,
            request_hash bytea NOT NULL,
            status bigint NOT NULL,
            body bytea NOT NULL,
            created_at bigint NOT NULL,
            CONSTRAINT idempotency_records_pkey PRIMARY KEY (scope, key_hash)
        );
        CREATE INDEX idempotency_records_created ON idempotency_records(created_at);

        CREATE TABLE signing_keys (
            kid text NOT NULL CONSTRAINT signing_keys_pkey PRIMARY KEY,
            public_key bytea NOT NULL,
            secret_key bytea NOT NULL,
            created_at bigint NOT NULL,
            retired_at bigint,
            publish_until bigint
        );

        CREATE FUNCTION biqli_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE store_state SET catalog_version = catalog_version + 1;
            PERFORM pg_notify('biqli_changes', TG_TABLE_NAME);
            RETURN NULL;
        END $$;
        CREATE FUNCTION biqli_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE store_state SET keys_version = keys_version + 1;
            PERFORM pg_notify('biqli_changes', TG_TABLE_NAME);
            RETURN NULL;
        END $$;
        CREATE TRIGGER domains_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON domains
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_catalog_changed();
        CREATE TRIGGER mobile_apps_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mobile_apps
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_catalog_changed();
        CREATE TRIGGER app_domains_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON app_domains
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_catalog_changed();
        CREATE TRIGGER links_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON links
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_catalog_changed();
        CREATE TRIGGER publishable_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON publishable_keys
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_keys_changed();
        CREATE TRIGGER secret_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON secret_keys
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_keys_changed();
        CREATE TRIGGER signing_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON signing_keys
            FOR EACH STATEMENT EXECUTE FUNCTION biqli_keys_changed();
        """
}
