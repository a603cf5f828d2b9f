/// A key prefix as a range of keys in byte order: `[prefix, upperBound(prefix))`.
/// Keys are `[A-Za-z0-9_-]` (ASCII below 0x7F), so every key that starts with the prefix
/// sorts before the prefix followed by DEL, and no other key does between. Both backends
/// compare keys bytewise (SQLite's BINARY, PostgreSQL's `COLLATE "C"` column), so a range
/// on the key index finds them.
enum LinkKeyPrefix {
    static func upperBound(_ prefix: String) -> String { prefix + "\u{7F}" }
}
