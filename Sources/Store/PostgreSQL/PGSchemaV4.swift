/// PostgreSQL schema version 4: link analytics (issue 19), the same as SQLite's version 5
/// (`SchemaV5`): `clicks.country`, `link_click_counts`, `link_country_counts` and
/// `link_open_counts`, with the rows already stored counted once.
///
/// Additive (`compatible_from` stays): binaries of versions 2 and 3 keep running beside
/// it during a rolling upgrade, writing clicks without a country and without adding to
/// the link counts (their clicks are missing from link analytics until they are
/// replaced). The text columns of the keys sort byte by byte (`COLLATE "C"`), as
/// SQLite's do, so both stores read the rows in one order.
///
/// The counts are taken before `clicks` gets its column: the `ALTER TABLE` locks the
/// table against the other edges' inserts until the step commits, which then is at once.
enum PGSchemaV4 {
    static let sql = """
        CREATE TABLE link_click_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            platform text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL,
            in_app_browser text COLLATE "C" NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT link_click_counts_pkey PRIMARY KEY (link_id, day, platform, kind, in_app_browser)
        );
        CREATE INDEX link_click_counts_day ON link_click_counts(day);

        CREATE TABLE link_country_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            country text COLLATE "C" NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT link_country_counts_pkey PRIMARY KEY (link_id, day, country)
        );
        CREATE INDEX link_country_counts_day ON link_country_counts(day);

        CREATE TABLE link_open_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            matched_by text COLLATE "C" NOT NULL,
            first_open boolean NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT link_open_counts_pkey PRIMARY KEY (link_id, day, matched_by, first_open)
        );
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

        ALTER TABLE clicks ADD COLUMN IF NOT EXISTS country text;
        """
}
