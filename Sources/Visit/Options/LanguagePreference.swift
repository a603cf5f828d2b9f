/// The visitor's language for a link's `languages` rules (decision 0032): the first tag of
/// `Accept-Language` with the highest `q` above 0, not any of them (most browsers list
/// English somewhere, and a rule for `en` would catch everyone).
public enum LanguagePreference {
    /// Only the header's first bytes and entries are read: a real header is a few dozen
    /// bytes, and a hostile one costs no more than this.
    public static let maxScannedBytes = 1_024
    public static let maxEntries = 32
    /// The longest tag kept (BCP 47 tags as rules hold them).
    public static let maxTagBytes = 35

    /// The preferred tag of `header`, as written; nil when none is usable. Malformed
    /// entries (a bad tag, a bad `q`) are skipped, `*` names no language.
    public static func preferred(_ header: Substring?) -> Substring? {
        guard let header else { return nil }
        let utf8 = header.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: maxScannedBytes, limitedBy: utf8.endIndex) ?? utf8.endIndex
        var best: Substring?
        var bestQ = 0
        var entries = 0
        var start = utf8.startIndex
        while start < end && entries < maxEntries {
            let stop = utf8[start..<end].firstIndex(of: UInt8(ascii: ",")) ?? end
            entries += 1
            if let (tag, q) = entry(header[start..<stop]), q > bestQ {
                best = tag
                bestQ = q
                if q == 1_000 { break }
            }
            start = stop == end ? end : utf8.index(after: stop)
        }
        return best
    }

    /// One entry, `tag[;q=0.8]`: the tag and its weight in thousandths; nil when malformed.
    /// Scanned in place (no array of parts): every visit of a link with language rules
    /// reads a few of these.
    static func entry(_ text: Substring) -> (Substring, Int)? {
        let semicolon = text.firstIndex(of: ";") ?? text.endIndex
        let tag = trimmed(text[..<semicolon])
        guard isTag(tag) else { return nil }
        var q = 1_000
        var rest = semicolon == text.endIndex ? text[text.endIndex...] : text[text.index(after: semicolon)...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            let p = trimmed(rest[..<end])
            if p.utf8.count >= 2, p.utf8.first == UInt8(ascii: "q") || p.utf8.first == UInt8(ascii: "Q"),
                p.utf8.dropFirst().first == UInt8(ascii: "=")
            {
                guard let value = qValue(p.dropFirst(2)) else { return nil }
                q = value
            }
            rest = end == rest.endIndex ? rest[rest.endIndex...] : rest[rest.index(after: end)...]
        }
        return (tag, q)
    }

    /// RFC 9110's qvalue, `0[.ddd]` or `1[.000]`, in thousandths.
    static func qValue(_ text: Substring) -> Int? {
        let bytes = text.utf8
        guard let lead = bytes.first, lead == UInt8(ascii: "0") || lead == UInt8(ascii: "1") else { return nil }
        var value = Int(lead - UInt8(ascii: "0")) * 1_000
        if bytes.count == 1 { return value }
        guard bytes.dropFirst().first == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for b in bytes.dropFirst(2) {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            value += Int(b - 0x30) * scale
            scale /= 10
        }
        return value <= 1_000 ? value : nil
    }

    /// A language range as BCP 47 spells it: 1 to 8 letters, then `-` and 1 to 8 letters
    /// or digits, at most `maxTagBytes` in all. `*` is no language.
    static func isTag(_ tag: Substring) -> Bool {
        let bytes = tag.utf8
        guard !bytes.isEmpty, bytes.count <= maxTagBytes else { return false }
        var run = 0
        var first = true
        for b in bytes {
            if b == UInt8(ascii: "-") {
                guard run > 0 else { return false }
                run = 0
                first = false
                continue
            }
            let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            let digit = b >= 0x30 && b <= 0x39
            guard letter || (digit && !first) else { return false }
            run += 1
            if run > 8 { return false }
        }
        return run > 0
    }

    /// Whether the rule's `range` covers the visitor's `tag`, ignoring case: `pt` covers
    /// `pt`, `pt-BR` and `pt-PT`; `pt-BR` covers `pt-BR` and its own subtags only.
    public static func matches(range: String, tag: Substring) -> Bool {
        let r = range.utf8
        let t = tag.utf8
        guard t.count >= r.count, !r.isEmpty else { return false }
        var ti = t.startIndex
        for rb in r {
            guard lower(rb) == lower(t[ti]) else { return false }
            ti = t.index(after: ti)
        }
        return ti == t.endIndex || t[ti] == UInt8(ascii: "-")
    }

    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    private static func trimmed(_ text: Substring) -> Substring {
        var t = text
        while let f = t.utf8.first, f == 0x20 || f == 0x09 { t = t.dropFirst() }
        while let l = t.utf8.last, l == 0x20 || l == 0x09 { t = t.dropLast() }
        return t
    }
}
