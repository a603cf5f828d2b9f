import Model

/// Version 4: an open event keeps its attribution receipt (issue 14), so that a
/// replay of the same event (by eventId or Idempotency-Key) returns it while it is
/// valid. Both columns are NULL for `none` answers and for events written before.
///
/// `ALTER TABLE ... ADD COLUMN` only changes the table's schema text: existing rows
/// are not rewritten and read the new columns as NULL.
enum SchemaV4 {
    static let sql = """
        ALTER TABLE open_events ADD COLUMN receipt BLOB;
        ALTER TABLE open_events ADD COLUMN receipt_expires_at INTEGER;
        """
}
