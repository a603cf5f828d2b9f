/// PostgreSQL schema version 13: the analytics of conversions (issue 25 item 6), as
/// SQLite's 13: `link_conversion_counts`, with the events already stored counted once.
/// Its text keys sort byte by byte (`COLLATE "C"`), as the other link counts' do.
///
/// Additive (`compatible_from` stays): an older binary beside it does not count its
/// leads and sales there, so a fleet upgrades every edge before reading these counts.
enum PGSchemaV13 {
    static let sql = """
        CREATE TABLE link_conversion_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            type text COLLATE "C" NOT NULL,
            currency text COLLATE "C" NOT NULL,
            count bigint NOT NULL,
            amount bigint NOT NULL,
            CONSTRAINT link_conversion_counts_pkey PRIMARY KEY (link_id, day, type, currency)
        );
        CREATE INDEX link_conversion_counts_day ON link_conversion_counts(day);

        INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount)
            SELECT link_id,
                   CASE WHEN occurred_at >= 0 THEN occurred_at / 86400000 ELSE (occurred_at - 86399999) / 86400000 END,
                   type, CASE WHEN type = 'sale' THEN coalesce(currency, '') ELSE '' END, count(*),
                   CASE WHEN type = 'sale' THEN coalesce(sum(amount), 0) ELSE 0 END
            FROM conversion_events WHERE link_id IS NOT NULL GROUP BY 1, 2, 3, 4;
        """
}
