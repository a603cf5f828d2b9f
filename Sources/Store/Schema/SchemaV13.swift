/// Version 13: the analytics of conversions (issue 25 item 6, decision 0026).
/// `link_conversion_counts` holds a link's leads and sales per UTC day (of the event's
/// `occurred_at`), type and currency: their number and, for sales, the sum of their
/// amounts in minor units. Leads have the currency "" and the amount 0. The writer adds
/// to it in the transaction that inserts the event, once per batch (as the click
/// counts), so that a link's report reads a few rows a day whatever the number of
/// sales. The step counts the events already stored; an erasure keeps the counts.
enum SchemaV13 {
    static let sql = """
        CREATE TABLE link_conversion_counts (
            link_id TEXT NOT NULL,
            day INTEGER NOT NULL,
            type TEXT NOT NULL,
            currency TEXT NOT NULL,
            count INTEGER NOT NULL,
            amount INTEGER NOT NULL,
            PRIMARY KEY (link_id, day, type, currency)
        ) WITHOUT ROWID;
        CREATE INDEX link_conversion_counts_day ON link_conversion_counts(day);

        INSERT INTO link_conversion_counts (link_id, day, type, currency, count, amount)
            SELECT link_id,
                   CASE WHEN occurred_at >= 0 THEN occurred_at / 86400000 ELSE (occurred_at - 86399999) / 86400000 END,
                   type, CASE WHEN type = 'sale' THEN coalesce(currency, '') ELSE '' END, count(*),
                   CASE WHEN type = 'sale' THEN coalesce(sum(amount), 0) ELSE 0 END
            FROM conversion_events WHERE link_id IS NOT NULL GROUP BY 1, 2, 3, 4;
        """
}
