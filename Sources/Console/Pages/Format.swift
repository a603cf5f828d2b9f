import Core
import Model
import Templates

/// How numbers, days and times read on the pages.
enum Format {
    /// `12,345`: a count, or a sum of amounts (128 bits, decision 0029).
    static func count(_ n: some BinaryInteger) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// `1,234.56 USD`: an amount in minor units of a currency (lowercase ISO 4217), with
    /// its minor digits; an unknown code shows the whole minor units. A sale's amount, or a
    /// sum of them past 64 bits (decision 0029).
    static func money(_ amount: Int128, _ currency: String) -> String {
        let code = currency.uppercased()
        let digits = Currency.minorUnit(currency) ?? 0
        guard digits > 0 else { return count(amount) + " " + code }
        var scale: Int128 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = count(amount / scale)
        var minor = String((amount % scale).magnitude)
        while minor.count < digits { minor = "0" + minor }
        return (amount < 0 && amount / scale == 0 ? "-" : "") + whole + "." + minor + " " + code
    }

    /// `2026-11-29`: a UTC day since the epoch.
    static func day(_ day: Int64) -> String { String(Timestamp.format(seconds: day * 86_400).prefix(10)) }

    /// A moment as `<time>`: UTC in the text (`2026-11-29 12:30:05 UTC`) and in
    /// `datetime`; the console's script rewrites the text in the viewer's time zone.
    static func time(_ milliseconds: Int64) -> HTML {
        let iso = Timestamp.format(seconds: milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000)
        let text = iso.dropLast().replacingFirst("T", with: " ") + " UTC"
        return "<time datetime=\"\(iso)\" data-utc=\"\">\(text)</time>"
    }

    /// `12 hours`, `90 minutes`, `45 seconds`: a duration in its largest whole unit.
    static func duration(seconds: Int) -> String {
        func unit(_ n: Int, _ name: String) -> String { "\(count(n)) \(name)\(n == 1 ? "" : "s")" }
        if seconds % 86_400 == 0 && seconds >= 86_400 { return unit(seconds / 86_400, "day") }
        if seconds % 3_600 == 0 && seconds >= 3_600 { return unit(seconds / 3_600, "hour") }
        if seconds % 60 == 0 && seconds >= 60 { return unit(seconds / 60, "minute") }
        return unit(seconds, "second")
    }
}

extension StringProtocol {
    fileprivate func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let i = firstIndex(of: target) else { return String(self) }
        return String(self[..<i]) + replacement + String(self[index(after: i)...])
    }
}
