/// Version 14: referring sites (issue 25 item 7, decision 0026). `link_referrer_counts`
/// holds a link's clicks per UTC day and referring site (the host of the visit's
/// `Referer`, `ReferringSite`), counted by the writer with the other daily counts; clicks
/// without a site have no row (the report names the rest of the clicks `none`). Only the
/// host is kept, never the page. Nothing to count back: no earlier click recorded its
/// referrer.
enum SchemaV14 {
    static let sql = """
        CREATE TABLE link_referrer_counts (
            link_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            referrer TEXT NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (link_id, day, referrer)
        ) WITHOUT ROWID;
        CREATE INDEX link_referrer_counts_day ON link_referrer_counts(day);
        """
}
