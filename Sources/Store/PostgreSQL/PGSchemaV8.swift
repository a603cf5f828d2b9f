/// PostgreSQL schema version 8: `open_events.receipt_input`, a receipt's signed part
/// (`header.payload`) stored unsigned by the writer and signed after the commit on an
/// event loop (decision 0023).
///
/// Additive (`compatible_from` stays): a column without a default is added at once to the
/// partitioned table. An older binary beside it reads such an event's `receipt` as none,
/// so a replay of it answers without a receipt there, as after the receipt's expiry.
enum PGSchemaV8 {
    static let sql = """
        ALTER TABLE open_events ADD COLUMN receipt_input bytea;
        """
}
