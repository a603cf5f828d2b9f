import Model

/// Version 5: link analytics (issue 19). A click keeps its country, and per-link daily
/// counts are kept beside the apps' hourly `click_counts`, so that a link's analytics
/// page reads a few rows per day whether the link had ten clicks or ten million.
///
/// - `clicks.country`: the ISO 3166-1 alpha-2 code the GeoIP database gave the client
///   address (`BIQLI_EDGE_GEOIP_DB`), NULL without one. Never the address.
/// - `link_click_counts`: clicks (and preview bots' visits, which leave no click) per
///   link, UTC day (`at / 86,400,000`), platform, kind and in-app browser, "" standing
///   for a regular browser (primary-key columns take no NULL).
/// - `link_country_counts`: the same clicks per link, UTC day and country, "" for
///   unknown. Apart, not crossed with the other values: a link seen from 150 countries
///   keeps 150 rows a day here, not 150 times its platforms and browsers.
/// - `link_open_counts`: open events of a link per UTC day, match type and first-open flag.
///
/// The writer adds to both once per batch (`LinkCounter`), in the batch's transaction.
/// Retention deletes whole days through the `day` indexes. The rows already stored are
/// counted once here (preview bots' past visits cannot be: they left no row).
enum SchemaV5 {
    static let sql = """
        ALTER TABLE clicks ADD COLUMN country TEXT;

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

        INSERT INTO link_click_counts (link_id, day, platform, kind, in_app_browser, count)
            SELECT link_id, CASE WHEN at >= 0 THEN at / 86400000 ELSE (at - 86399999) / 86400000 END,
                   platform, kind, coalesce(in_app_browser, ''), count(*)
            FROM clicks GROUP BY 1, 2, 3, 4, 5;
        INSERT INTO link_country_counts (link_id, day, country, count)
            SELECT link_id, CASE WHEN at >= 0 THEN at / 86400000 ELSE (at - 86399999) / 86400000 END, '', count(*)
            FROM clicks GROUP BY 1, 2;
        INSERT INTO link_open_counts (link_id, day, matched_by, first_open, count)
            SELECT link_id, CASE WHEN at >= 0 THEN at / 86400000 ELSE (at - 86399999) / 86400000 END,
                   matched_by, first_open, count(*)
            FROM open_events WHERE link_id IS NOT NULL GROUP BY 1, 2, 3, 4;
        """
}
