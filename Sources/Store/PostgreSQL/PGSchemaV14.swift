/// PostgreSQL schema version 14: referring sites (issue 25 item 7), as SQLite's 14:
/// `link_referrer_counts`, a link's clicks per UTC day and referring site. Its text keys
/// sort byte by byte (`COLLATE "C"`), as the other link counts' do.
///
/// Additive (`compatible_from` stays): an older binary beside it does not count the
/// referrers of the clicks it records, so a fleet's referrer counts are whole once every
/// edge runs the new binary.
enum PGSchemaV14 {
    static let sql = """
        CREATE TABLE link_referrer_counts (
            link_id text COLLATE "C" NOT NULL,
            day bigint NOT NULL,
            referrer text COLLATE "C" NOT NULL,
            count bigint NOT NULL,
            CONSTRAINT link_referrer_counts_pkey PRIMARY KEY (link_id, day, referrer)
        );
        CREATE INDEX link_referrer_counts_day ON link_referrer_counts(day);
        """
}
