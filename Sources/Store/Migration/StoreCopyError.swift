import Model

/// Why `StoreCopy` did not copy. Whatever the case but `commitUnknown`, the target is as
/// it was before: the schema, the day partitions and the rows are one PostgreSQL
/// transaction, rolled back on any failure (an empty database keeps no table). Messages
/// never hold the password.
public enum StoreCopyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The SQLite file cannot be read: missing, not a database, unreadable.
    case source(String)
    /// The SQLite file's schema is not the one this binary writes.
    case sourceVersion(found: Int, supported: Int)
    /// The PostgreSQL database already holds rows in these tables: nothing was copied.
    case targetNotEmpty([String])
    /// Counted after the copy, these tables differ from the source: rolled back.
    case countsDiffer([StoreCopy.TableCount])
    /// PostgreSQL (or SQLite) failed during the copy: rolled back.
    case store(StoreError)
    /// The same, while the rows of this table were read or sent (a row PostgreSQL refuses
    /// names the table to look in): rolled back.
    case copying(table: String, StoreError)
    /// The connection failed while PostgreSQL committed: the copy is either whole (every
    /// table was counted before the commit) or absent, and only the database knows.
    case commitUnknown(StoreError)

    public var description: String {
        switch self {
        case .source(let message):
            return "cannot read the SQLite store: \(message)"
        case .sourceVersion(let found, let supported) where found < supported:
            return "the SQLite store has schema version \(found), this biqli-edge writes \(supported): "
                + "start this biqli-edge's `serve` on the data directory once (it upgrades the file at "
                + "start-up), stop it, then copy"
        case .sourceVersion(let found, let supported):
            return "the SQLite store has schema version \(found), newer than this biqli-edge's \(supported): "
                + "copy it with the biqli-edge that wrote it"
        case .targetNotEmpty(let tables):
            return "the PostgreSQL database is not empty (rows in \(tables.joined(separator: ", "))): "
                + "copy into a new, empty database; nothing was written"
        case .countsDiffer(let counts):
            let detail = counts.map { "\($0.table): \($0.source) in SQLite, \($0.copied) copied" }
            return "the copy does not match the SQLite store (\(detail.joined(separator: "; "))); "
                + "rolled back, nothing was written"
        case .store(let error):
            return "\(error.safeMessage); rolled back, nothing was written: the database is as it was"
        case .copying(let table, let error):
            return "while copying \(table): \(error.safeMessage); rolled back, nothing was written: the database "
                + "is as it was"
        case .commitUnknown(let error):
            return "the connection to PostgreSQL failed while the copy committed (\(error.safeMessage)): it is "
                + "either whole (every table was counted before the commit) or absent, never partial. Run the "
                + "same command again: if it says the database is not empty, the copy committed; otherwise it "
                + "copies anew"
        }
    }
}
