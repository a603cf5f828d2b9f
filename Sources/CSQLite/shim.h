#include <sqlite3.h>

/// Process-wide settings, before SQLite initialises (sqlite3_config is variadic,
/// so Swift cannot call it). Memory statistics off: with them on, every SQLite
/// allocation takes a global mutex shared by all connections.
static inline int biqli_sqlite_configure(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
