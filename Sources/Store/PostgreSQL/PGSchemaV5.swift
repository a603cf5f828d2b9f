/// PostgreSQL schema step 5: certificates ordered through ACME (decision 0017), the same
/// tables as SQLite's version 6 (`SchemaV6`, which explains them). Additive: new tables
/// only, so `compatible_from` stays and older nodes keep running beside it during a
/// rolling upgrade (they order nothing and serve their certificate directory, as before).
///
/// It follows steps 3 (the fleet's rate limits) and 4 (link analytics).
///
/// No trigger notifies `biqli_changes` for these tables: a certificate must not drop
/// every node's link caches. Nodes poll `acme_state.version` instead (every second).
enum PGSchemaV5 {
    static let sql = """
        CREATE TABLE certificates (
            hostname text NOT NULL CONSTRAINT certificates_pkey PRIMARY KEY,
            status text NOT NULL,
            chain_pem text,
            key_pem text,
            not_before bigint,
            not_after bigint,
            issuer text,
            renewal_at bigint,
            renewal_info_check_at bigint,
            last_error_type text,
            last_error_detail text,
            failures bigint NOT NULL DEFAULT 0,
            next_attempt_at bigint,
            lease_node text,
            lease_until bigint,
            updated_at bigint NOT NULL
        );

        CREATE TABLE acme_accounts (
            directory_url text NOT NULL CONSTRAINT acme_accounts_pkey PRIMARY KEY,
            key_pem text NOT NULL,
            account_url text,
            created_at bigint NOT NULL
        );

        CREATE TABLE acme_challenges (
            token text NOT NULL CONSTRAINT acme_challenges_pkey PRIMARY KEY,
            hostname text NOT NULL,
            kind text NOT NULL,
            key_authorization text NOT NULL,
            expires_at bigint NOT NULL
        );

        CREATE TABLE certificate_orders (
            id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT certificate_orders_pkey PRIMARY KEY,
            hostname text NOT NULL,
            node text NOT NULL,
            started_at bigint NOT NULL,
            finished_at bigint NOT NULL,
            result text NOT NULL,
            problem_type text,
            detail text
        );
        CREATE INDEX certificate_orders_by_hostname ON certificate_orders (hostname, id);

        CREATE TABLE acme_state (
            id bigint NOT NULL CONSTRAINT acme_state_pkey PRIMARY KEY CHECK (id = 1),
            version bigint NOT NULL
        );
        INSERT INTO acme_state (id, version) VALUES (1, 0);
        """
}
