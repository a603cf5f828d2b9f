/// One table that `StoreCopy` moves from the SQLite file to PostgreSQL: its columns
/// (the same names on both sides, `PGSchemaV1` having kept SQLite's), how each value
/// travels, and which source rows go.
///
/// The SQL is generated from the column list, so a column added to both schemas is one
/// line here; `StoreCopyTests` compares every read of both stores after a copy, which
/// fails when a column is forgotten.
struct CopyTable {
    /// How a column's value is read from SQLite and sent to PostgreSQL.
    enum Kind {
        /// TEXT -> text (JSON included: it stays the text `JSONWriter` wrote).
        case text
        /// INTEGER -> bigint.
        case int
        /// INTEGER 0/1 -> boolean.
        case flag
        /// BLOB -> bytea (an empty blob stays empty, NULL stays NULL).
        case bytes

        var elementOID: UInt32 {
            switch self {
            case .text: return PGParams.textOID
            case .int: return PGParams.int8OID
            case .flag: return PGParams.boolOID
            case .bytes: return PGParams.byteaOID
            }
        }

        var arrayType: String {
            switch self {
            case .text: return "text[]"
            case .int: return "int8[]"
            case .flag: return "bool[]"
            case .bytes: return "bytea[]"
            }
        }
    }

    let name: String
    let columns: [(name: String, kind: Kind)]
    /// A condition on the source rows, `?1` being the copy's clock (handoffs: unexpired).
    let sourceFilter: String?

    init(_ name: String, _ columns: [(String, Kind)], sourceFilter: String? = nil) {
        self.name = name
        self.columns = columns.map { (name: $0.0, kind: $0.1) }
        self.sourceFilter = sourceFilter
    }

    private var columnList: String { columns.map(\.name).joined(separator: ", ") }
    private var whereClause: String { sourceFilter.map { " WHERE " + $0 } ?? "" }

    /// The source rows to copy (SQLite).
    var selectSQL: String { "SELECT \(columnList) FROM \(name)\(whereClause)" }

    /// How many rows the source has to copy (SQLite).
    var sourceCountSQL: String { "SELECT count(*) FROM \(name)\(whereClause)" }

    /// How many rows the target holds (PostgreSQL).
    var targetCountSQL: String { "SELECT count(*) FROM \(name)" }

    /// One batch: one binary array parameter per column (PostgreSQL).
    var insertSQL: String {
        let arrays = columns.enumerated().map { i, c in "$\(i + 1)::\(c.kind.arrayType)" }.joined(separator: ", ")
        return "INSERT INTO \(name) (\(columnList)) SELECT * FROM unnest(\(arrays))"
    }

    /// In copy order: parents before the rows that refer to them (links need domains and
    /// apps, attachments both), then the event tables.
    static let all: [CopyTable] = [
        CopyTable(
            "secret_keys",
            [
                ("id", .text), ("name", .text), ("key_hash", .bytes), ("hint", .text), ("created_at", .int),
                ("revoked_at", .int), ("scopes", .text),
            ]),
        CopyTable(
            "browser_keys",
            [
                ("id", .text), ("name", .text), ("key_hash", .bytes), ("hint", .text), ("created_at", .int),
                ("revoked_at", .int),
            ]),
        CopyTable(
            "client_click_settings", [("id", .int), ("enabled", .flag), ("hostnames", .text), ("updated_at", .int)]),
        // The workspace's switches of the in-app escapes (decision 0033 §5).
        CopyTable("in_app_escape_settings", [("id", .int), ("switches", .text), ("updated_at", .int)]),
        // The console's sessions (decision 0019), so that an operator signed in stays
        // signed in after the move: only their tokens' hashes, as stored; expired ones
        // stay behind. A session names its secret key by id, which the copy keeps.
        CopyTable(
            "console_sessions",
            [
                ("token_hash", .bytes), ("kind", .text), ("secret_key_id", .text), ("created_at", .int),
                ("expires_at", .int),
            ],
            sourceFilter: "expires_at > ?1"),
        CopyTable(
            "domains",
            [
                ("hostname", .text), ("verified", .flag), ("deep_view_enabled", .flag), ("root_url", .text),
                ("not_found_url", .text), ("created_at", .int), ("updated_at", .int), ("track_conversions", .flag),
                ("pass_query", .flag), ("alternate_hostname", .text),
            ]),
        CopyTable(
            "mobile_apps",
            [
                ("id", .text), ("name", .text), ("enabled", .flag), ("icon_url", .text), ("ios", .text),
                ("android", .text), ("handoff_lifetime_seconds", .int), ("key_overlap_seconds", .int),
                ("created_at", .int), ("updated_at", .int),
            ]),
        CopyTable("app_domains", [("app_id", .text), ("hostname", .text), ("position", .int)]),
        CopyTable(
            "publishable_keys",
            [
                ("id", .text), ("app_id", .text), ("key_hash", .bytes), ("hint", .text), ("created_at", .int),
                ("expires_at", .int), ("revoked_at", .int),
            ]),
        CopyTable(
            "links",
            [
                ("id", .text), ("domain", .text), ("key", .text), ("url", .text), ("enabled", .flag),
                ("app_id", .text), ("route", .text), ("referral_code", .text), ("metadata", .text),
                ("dynamic_keys", .text), ("deep_view", .flag), ("has_preview", .flag), ("preview_title", .text),
                ("preview_description", .text), ("preview_image_url", .text), ("created_at", .int),
                ("updated_at", .int), ("track_conversions", .flag), ("options", .text), ("external_id", .text),
            ]),
        // Tags (issue 35), then the links' tags.
        CopyTable(
            "tags",
            [
                ("id", .text), ("name", .text), ("name_key", .text), ("color", .text), ("created_at", .int),
                ("updated_at", .int),
            ]),
        CopyTable("link_tags", [("link_id", .text), ("tag_id", .text)]),
        CopyTable(
            "signing_keys",
            [
                ("kid", .text), ("public_key", .bytes), ("secret_key", .bytes), ("created_at", .int),
                ("retired_at", .int), ("publish_until", .int),
            ]),
        CopyTable(
            "idempotency_records",
            [
                ("scope", .text), ("key_hash", .bytes), ("request_hash", .bytes), ("status", .int), ("body", .bytes),
                ("created_at", .int),
            ]),
        // Conversions (decision 0024): customers, then their leads and sales with the
        // answers they replay.
        CopyTable(
            "customers",
            [
                ("id", .text), ("external_id", .text), ("name", .text), ("email", .text), ("avatar", .text),
                ("click_id", .text), ("link_id", .text), ("created_at", .int), ("updated_at", .int),
            ]),
        CopyTable(
            "conversion_events",
            [
                ("id", .text), ("type", .text), ("event_id", .text), ("idempotency_key_hash", .bytes),
                ("request_hash", .bytes), ("event_name", .text), ("customer_id", .text), ("click_id", .text),
                ("link_id", .text), ("amount", .int), ("currency", .text), ("payment_processor", .text),
                ("invoice_id", .text), ("metadata", .text), ("occurred_at", .int), ("created_at", .int),
                ("response", .bytes), ("variant", .int),
            ]),
        // Webhooks (decision 0028): the endpoints with their secrets, the outbox (without its
        // leases: they were the SQLite edge's, which the move stops) and the attempts.
        CopyTable(
            "webhook_endpoints",
            [
                ("id", .text), ("url", .text), ("description", .text), ("event_types", .text), ("app_ids", .text),
                ("link_ids", .text), ("enabled", .flag), ("disabled_reason", .text), ("disabled_at", .int),
                ("secret", .text), ("previous_secret", .text), ("previous_secret_expires_at", .int),
                ("failing_since", .int), ("created_at", .int), ("updated_at", .int),
            ]),
        CopyTable(
            "webhook_outbox",
            [
                ("endpoint_id", .text), ("message_id", .text), ("type", .text), ("body", .bytes), ("created_at", .int),
                ("state", .text), ("attempts", .int), ("scheduled_attempts", .int), ("schedule_started_at", .int),
                ("next_attempt_at", .int), ("last_status", .int), ("last_error", .text), ("delivered_at", .int),
                ("updated_at", .int),
            ]),
        CopyTable(
            "webhook_attempts",
            [
                ("endpoint_id", .text), ("message_id", .text), ("number", .int), ("at", .int), ("duration_ms", .int),
                ("status", .int), ("error", .text), ("answer", .text), ("node", .text),
            ]),
        // The ids of the keys that sealed the secrets (decision 0031): the keys themselves
        // stay in the data directory, which the edge keeps on PostgreSQL too.
        CopyTable("webhook_secret_keys", [("id", .text), ("created_at", .int)]),
        // Certificates ordered through ACME and the account that ordered them (decision
        // 0017): moving keeps them, rather than ordering everything again. Challenges and
        // past attempts are transient and stay behind.
        CopyTable(
            "certificates",
            [
                ("hostname", .text), ("status", .text), ("chain_pem", .text), ("key_pem", .text),
                ("not_before", .int), ("not_after", .int), ("issuer", .text), ("renewal_at", .int),
                ("renewal_info_check_at", .int), ("last_error_type", .text), ("last_error_detail", .text),
                ("failures", .int), ("next_attempt_at", .int), ("lease_node", .text), ("lease_until", .int),
                ("updated_at", .int),
            ]),
        CopyTable(
            "acme_accounts",
            [("directory_url", .text), ("key_pem", .text), ("account_url", .text), ("created_at", .int)]),
        CopyTable(
            "app_instances",
            [
                ("app_id", .text), ("instance_id", .text), ("platform", .text), ("first_open_id", .text),
                ("created_at", .int),
            ]),
        CopyTable(
            "click_counts",
            [("app_id", .text), ("hour", .int), ("platform", .text), ("kind", .text), ("count", .int)]),
        CopyTable(
            "link_click_counts",
            [
                ("link_id", .text), ("day", .int), ("platform", .text), ("kind", .text), ("in_app_browser", .text),
                ("count", .int),
            ]),
        CopyTable("link_country_counts", [("link_id", .text), ("day", .int), ("country", .text), ("count", .int)]),
        CopyTable(
            "link_referrer_counts", [("link_id", .text), ("day", .int), ("referrer", .text), ("count", .int)]),
        CopyTable(
            "link_open_counts",
            [("link_id", .text), ("day", .int), ("matched_by", .text), ("first_open", .flag), ("count", .int)]),
        CopyTable(
            "link_conversion_counts",
            [
                ("link_id", .text), ("day", .int), ("type", .text), ("currency", .text), ("count", .int),
                ("amount", .int), ("amount_high", .int),
            ]),
        // A link's counts per arm of its A/B test (schema 17, decision 0032).
        CopyTable("link_variant_counts", [("link_id", .text), ("day", .int), ("variant", .int), ("count", .int)]),
        CopyTable(
            "link_variant_conversion_counts",
            [
                ("link_id", .text), ("day", .int), ("variant", .int), ("type", .text), ("currency", .text),
                ("count", .int), ("amount", .int), ("amount_high", .int),
            ]),
        CopyTable(
            "handoffs",
            [
                ("token_hash", .bytes), ("click_id", .text), ("app_id", .text), ("platform", .text),
                ("link_id", .text), ("short_url", .text), ("route", .text), ("referral_code", .text),
                ("metadata", .text), ("dynamic", .text), ("created_at", .int), ("expires_at", .int),
                ("claimed_instance", .text), ("claimed_open", .text),
            ], sourceFilter: "expires_at > ?1"),
        CopyTable(
            "clicks",
            [
                ("id", .text), ("link_id", .text), ("app_id", .text), ("domain", .text), ("at", .int),
                ("kind", .text), ("platform", .text), ("in_app_browser", .text), ("dynamic", .text),
                ("source_hash", .bytes), ("os_version", .text), ("consumed_by_open", .text), ("country", .text),
                ("variant", .int),
            ]),
        CopyTable(
            "open_events",
            [
                ("id", .text), ("app_id", .text), ("instance_id", .text), ("event_id", .text),
                ("idempotency_key_hash", .bytes), ("request_hash", .bytes), ("platform", .text),
                ("matched_by", .text), ("first_open", .flag), ("sdk_version", .text), ("link_id", .text),
                ("click_id", .text), ("at", .int), ("stored_response", .bytes), ("receipt", .bytes),
                ("receipt_expires_at", .int), ("receipt_input", .bytes),
            ]),
    ]

    /// The tables a target must have no row in (every table the copy writes, the derived
    /// `open_event_keys` included).
    static var targetTables: [String] { all.map(\.name) + [OpenEventKeys.table] }
}
