/// A key prefix as a range of keys in byte order: `[prefix, upperBound(prefix))`, and a
/// page's place in it. Keys are `[A-Za-z0-9_-]` (ASCII below 0x7F), so every key that
/// starts with the prefix sorts before the prefix followed by DEL, and no other key does
/// between. Both backends compare keys bytewise (SQLite's BINARY, PostgreSQL's
/// `COLLATE "C"` column), so a range of the key index finds them.
///
/// The queries seek to `key >= lowerKey` and drop the rows at or before the cursor with
/// `(key > lowerKey OR id > lowerId)` (only rows of that very key can be): both backends
/// use the seek whatever their statistics, where a row-value comparison is not always one.
struct LinkKeyRange {
    let lowerKey: String
    let lowerId: String
    let upperKey: String

    init(prefix: String, after: (key: String, id: String)?) {
        upperKey = prefix + "\u{7F}"
        if let after, after.key >= prefix {
            lowerKey = after.key
            lowerId = after.id
        } else {
            // Every id is above "": the prefix's own key is included.
            lowerKey = prefix
            lowerId = ""
        }
    }
}
