/// Version 15: sums of sales past 64 bits (issue 33 item 1, decision 0029). A link's day
/// of one currency passes 2^63 - 1 minor units after 1,025 sales of the largest amount,
/// where SQLite's `+` turned the sum into a lossy REAL. The sum is now kept in two
/// columns, `amount_high * 10^18 + amount` (`StoredAmount`), `amount` below 10^18.
///
/// Rows an older binary overflowed (a REAL) are counted again from their events, exactly:
/// each amount in two parts below 10^9, so that no SQL sum passes 64 bits below about
/// 8 billion sales of one link, day and currency (the scan runs only when such a row
/// exists). Then every row at or above 10^18 carries its excess into `amount_high`.
enum SchemaV15 {
    static let sql = """
        ALTER TABLE link_conversion_counts ADD COLUMN amount_high INTEGER NOT NULL DEFAULT 0;

        UPDATE link_conversion_counts AS c
        SET amount = ((s.a % 1000000000) * 1000000000 + s.b) % 1000000000000000000,
            amount_high = s.a / 1000000000 + ((s.a % 1000000000) * 1000000000 + s.b) / 1000000000000000000
        FROM (
            SELECT link_id,
                   CASE WHEN occurred_at >= 0 THEN occurred_at / 86400000 ELSE (occurred_at - 86399999) / 86400000 END
                       AS day,
                   coalesce(currency, '') AS currency, sum(amount / 1000000000) AS a, sum(amount % 1000000000) AS b
            FROM conversion_events
            WHERE type = 'sale' AND link_id IS NOT NULL
              AND EXISTS (SELECT 1 FROM link_conversion_counts WHERE typeof(amount) <> 'integer')
            GROUP BY 1, 2, 3
        ) AS s
        WHERE typeof(c.amount) <> 'integer' AND c.type = 'sale'
          AND s.link_id = c.link_id AND s.day = c.day AND s.currency = c.currency;

        UPDATE link_conversion_counts
        SET amount_high = amount / 1000000000000000000, amount = amount % 1000000000000000000
        WHERE amount >= 1000000000000000000;
        """
}
