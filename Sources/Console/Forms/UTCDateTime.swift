import Core

/// The link form's expiry: an `<input type="datetime-local">` read as UTC (the page says
/// so), `2026-06-01T12:30` or `2026-06-01T12:30:45`, and the API's RFC 3339 instant.
enum UTCDateTime {
    /// The RFC 3339 instant of a typed value; nil when it is not a datetime-local value
    /// (the form then sends it as typed, for the API to name).
    static func rfc3339(_ local: String) -> String? {
        let b = Array(local.utf8)
        guard b.count == 16 || b.count == 19 else { return nil }
        let digits: Set<Int> = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        for (i, c) in b.enumerated() {
            switch i {
            case 4, 7: guard c == UInt8(ascii: "-") else { return nil }
            case 10: guard c == UInt8(ascii: "T") || c == UInt8(ascii: " ") else { return nil }
            case 13, 16: guard c == UInt8(ascii: ":") else { return nil }
            default: guard digits.contains(i), (48...57).contains(c) else { return nil }
            }
        }
        let date = String(decoding: b[0..<10], as: UTF8.self)
        let time = String(decoding: b[11...], as: UTF8.self)
        let text = date + "T" + time + (b.count == 16 ? ":00Z" : "Z")
        return Timestamp.parse(text) != nil ? text : nil
    }

    /// The datetime-local value of `milliseconds` in UTC: seconds only when not zero
    /// (milliseconds are not shown).
    static func local(_ milliseconds: Int64) -> String {
        let text = Timestamp.format(milliseconds: milliseconds)
        let seconds = text.dropFirst(17).prefix(2)
        return String(text.prefix(seconds == "00" ? 16 : 19))
    }
}
