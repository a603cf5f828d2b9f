import Core

/// `Retry-After` (RFC 9110, section 10.2.3): seconds, or an HTTP date.
public enum RetryAfter {
    /// Milliseconds to wait from `now` (Unix milliseconds); nil when absent or unreadable.
    public static func milliseconds(_ value: String?, now: Int64) -> Int64? {
        guard let value = value?.trimmed(" "), !value.isEmpty else { return nil }
        if let seconds = Int64(value), seconds >= 0 { return min(seconds, 86_400 * 7) * 1_000 }
        guard let at = httpDate(value) else { return nil }
        return max(0, at - now)
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), Unix milliseconds.
    static func httpDate(_ text: String) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let h = Int(time[0]), let m = Int(time[1]), let s = Int(time[2]) else { return nil }
        func pad(_ n: Int, _ width: Int) -> String {
            let d = String(n)
            return String(repeating: "0", count: max(0, width - d.count)) + d
        }
        let iso =
            "\(pad(year, 4))-\(pad(month + 1, 2))-\(pad(day, 2))T\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2))Z"
        return Timestamp.parse(iso)
    }
}
