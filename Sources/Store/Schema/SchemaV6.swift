/// Version 6: certificates ordered through ACME (decision 0017), shared by every node.
///
/// - `certificates`: one row per hostname: the chain and its private key once issued,
///   the state of its orders (status, the CA's last problem, failures in a row, the next
///   attempt, when to renew) and the claim of the node ordering now (`lease_*`: one
///   order per hostname at a time, across a fleet). A rowid table: the PEM texts make
///   rows of several KB, which a `WITHOUT ROWID` B-tree keeps badly.
/// - `acme_accounts`: the account key per CA directory, made once.
/// - `acme_challenges`: challenges being answered, so that every node answers the CA.
/// - `certificate_orders`: finished attempts, the newest kept per hostname.
/// - `acme_state.version`: moved by every write of the above, so that nodes notice a
///   change by reading one number.
enum SchemaV6 {
    static let sql = """
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
        """
}
