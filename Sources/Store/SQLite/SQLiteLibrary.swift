import CSQLite
import Model

/// SQLite's process-wide configuration, applied once before anything initialises
/// the library (opening a connection or registering a VFS does).
enum SQLiteLibrary {
    /// SQLITE_OK, or SQLITE_MISUSE when something in the process initialised SQLite
    /// first (the settings are then SQLite's defaults: slower, still correct).
    static let configured: Int32 = biqli_sqlite_configure()
}
