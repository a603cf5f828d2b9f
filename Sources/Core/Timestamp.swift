/// ISO 8601 / RFC 3339 timestamps in UTC, as the API writes and reads them.
///
/// Written as `2026-11-29T12:30:00Z` or with milliseconds `2026-11-29T12:30:00.123Z`.
/// Read with or without fractional seconds (iOS sends none, Android milliseconds),
/// with `Z` or a numeric offset.
public enum Timestamp {
    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// `2026-11-29T12:30:00Z` for whole seconds since the epoch.
    public static func format(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rem = seconds - days * 86400
        let (y, m, d) = civilFromDays(days)
        return
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem % 3600 / 60, 2)):\(pad(rem % 60, 2))Z"
    }

    /// `2026-11-29T12:30:00.123Z` for milliseconds since the epoch.
    public static func format(milliseconds: Int64) -> String {
        let s = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let ms = milliseconds - s * 1000
        var text = format(seconds: s)
        text.removeLast()
        return text + "." + pad(ms, 3) + "Z"
    }

    /// Parses an RFC 3339 date-time into milliseconds since the epoch.
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        func num(_ from: Int, _ len: Int) -> Int64? {
            guard from + len <= b.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + len) {
                guard (48...57).contains(b[i]) else { return nil }
                v = v * 10 + Int64(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), let h = num(11, 2), b[13] == 58,
            let mi = num(14, 2), b[16] == 58, let s = num(17, 2)
        else { return nil }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        let monthDays: [Int64] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d <= monthDays[Int(mo - 1)] else { return nil }
        if mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) { return nil }
        var i = 19
        var millis: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            var scale: Int64 = 100
            while i < b.count, (48...57).contains(b[i]) {
                millis += Int64(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start || i - start > 9 { return nil }
        }
        guard i < b.count else { return nil }
        var offset: Int64 = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
            guard let oh = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let om = num(i + 4, 2), oh < 24, om < 60
            else { return nil }
            offset = sign * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let secs = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + min(s, 59) - offset
        return secs * 1000 + millis
    }
}
