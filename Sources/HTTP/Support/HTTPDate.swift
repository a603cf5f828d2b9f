#if canImport(Glibc)
import Glibc
#endif

/// The IMF-fixdate of the current second (`Sun, 06 Nov 1994 08:49:37 GMT`),
/// formatted once per second per loop.
struct HTTPDateCache {
    private var second: Int = -1
    private(set) var bytes: [UInt8] = []

    private static let days: [String] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months: [String] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            bytes = Array(HTTPDateCache.format(Int64(now)).utf8)
        }
        return bytes
    }

    static func format(_ seconds: Int64) -> String {
        let daysSinceEpoch = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rem = seconds - daysSinceEpoch * 86400
        // Civil-from-days (Hinnant), as in Core.Timestamp, kept local to stay dependency-free.
        let z = daysSinceEpoch + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        let weekday = days[Int(((daysSinceEpoch % 7) + 7) % 7)]
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return
            "\(weekday), \(two(d)) \(months[Int(m - 1)]) \(y) \(two(rem / 3600)):\(two(rem % 3600 / 60)):\(two(rem % 60)) GMT"
    }
}
