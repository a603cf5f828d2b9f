/// `If-None-Match` evaluation (RFC 9110 §13.1.2).
///
/// `If-None-Match = "*" / #entity-tag`, compared with the **weak** comparison
/// function: `W/"x"` and `"x"` are the same tag for this purpose. A quoted tag may
/// contain commas, so the list is scanned, not split. Members that are not entity
/// tags (unquoted junk) are skipped: they can only cost a 200 instead of a 304.
enum EntityTagList {
    /// True when `field` matches `etag` (our own tag, strong and quoted).
    static func matches(_ field: String, etag: String) -> Bool {
        let ours = opaque(Substring(etag))
        let u = Array(field.utf8)
        var i = 0
        while i < u.count {
            let c = u[i]
            if c == 0x20 || c == 0x09 || c == UInt8(ascii: ",") {
                i += 1
                continue
            }
            if c == UInt8(ascii: "*") {
                // "*" matches any current representation; there is one whenever we are asked.
                return true
            }
            var start = i
            if c == UInt8(ascii: "W"), i + 1 < u.count, u[i + 1] == UInt8(ascii: "/") { start = i + 2 }
            if start < u.count, u[start] == UInt8(ascii: "\"") {
                var end = start + 1
                while end < u.count, u[end] != UInt8(ascii: "\"") { end += 1 }
                if end < u.count {
                    if u[start...end].elementsEqual(ours) { return true }
                    i = end + 1
                    continue
                }
                return false  // unterminated quote: nothing further can be a valid tag
            }
            // Not an entity tag: skip to the next list member.
            while i < u.count, u[i] != UInt8(ascii: ",") { i += 1 }
        }
        return false
    }

    /// The quoted opaque part of a tag, without any `W/`.
    private static func opaque(_ tag: Substring) -> [UInt8] {
        Array((tag.hasPrefix("W/") ? tag.dropFirst(2) : tag).utf8)
    }
}
