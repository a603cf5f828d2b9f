/// Version 8: `open_events.receipt_input`, a receipt's signed part (`header.payload`)
/// stored unsigned by the writer and signed after the commit on an event loop (decision
/// 0023): the writer thread no longer spends an Ed25519 signature per matched open.
enum SchemaV8 {
    static let sql = """
        ALTER TABLE open_events ADD COLUMN receipt_input BLOB;
        """
}
