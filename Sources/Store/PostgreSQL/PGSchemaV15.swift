/// PostgreSQL schema version 15: sums of sales past 64 bits (issue 33 item 1, decision
/// 0029), as SQLite's 15: `amount_high`, the sum being `amount_high * 10^18 + amount`
/// (`StoredAmount`). An older binary's upsert failed (`bigint out of range`) rather than
/// storing a wrong sum, so no row needs counting again; those at or above 10^18 carry
/// their excess into the new column.
///
/// Additive (`compatible_from` stays): an older binary beside it reads and adds to
/// `amount` alone (its reports lose the carried part, as they would have failed on it);
/// this binary's upsert adds in `numeric`, so an `amount` an older one left above 10^18
/// is carried at the next sale.
enum PGSchemaV15 {
    static let sql = """
        ALTER TABLE link_conversion_counts ADD COLUMN amount_high bigint NOT NULL DEFAULT 0;
        UPDATE link_conversion_counts
        SET amount_high = amount / 1000000000000000000, amount = amount % 1000000000000000000
        WHERE amount >= 1000000000000000000;
        """
}
