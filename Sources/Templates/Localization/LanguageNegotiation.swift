/// Picks the page language from an `Accept-Language` header (RFC 9110 §12.5.4, RFC 4647).
///
/// Ranges are tried by descending `q` (ties keep header order); `q=0` ranges are skipped and their
/// exact tags excluded. For a range, in order: the exact tag; then the range truncated subtag by
/// subtag (`pt-BR` -> `pt`, RFC 4647 lookup); then the first available tag that extends it (`zh`
/// -> `zh-hant`, basic filtering). `*` means the fallback (or, if that is excluded, the first
/// available tag not excluded). Nothing matching: the fallback. Tags compare case-insensitively and
/// come back lower-case. Malformed items (bad tag, bad `q`) are ignored; a header longer than
/// 4 KiB or items past the 32nd are not read, so the work stays bounded.
public enum LanguageNegotiation {
    static let maxHeaderBytes = 4096
    static let maxItems = 32

    /// The best of `available` (lower-case tags) for `header`, or `fallback`.
    public static func negotiate(_ header: String?, available: Set<String>, fallback: String = "en") -> String {
        guard let header, !header.isEmpty else { return fallback }
        let ranges = parse(header)
        let excluded = Set(ranges.filter { $0.quality == 0 }.map(\.tag))
        let candidates = available.subtracting(excluded)
        for range in ranges where range.quality > 0 {
            if range.tag == "*" {
                if !excluded.contains(fallback) { return fallback }
                if let first = candidates.sorted().first { return first }
                continue
            }
            if let match = lookup(range.tag, in: candidates) { return match }
        }
        return fallback
    }

    /// A parsed item: lower-case tag (or `*`) and quality in thousandths (0...1000).
    struct Range: Equatable {
        let tag: String
        let quality: Int
    }

    /// The well-formed items of `header`, best first.
    static func parse(_ header: String) -> [Range] {
        let text =
            header.utf8.count > maxHeaderBytes
            ? String(decoding: header.utf8.prefix(maxHeaderBytes), as: UTF8.self) : header
        var ranges: [Range] = []
        for item in text.split(separator: ",").prefix(maxItems) {
            let parts = item.split(separator: ";", omittingEmptySubsequences: false)
            let tag = parts[0].trimmingSpaces().lowercased()
            guard isRange(tag) else { continue }
            var quality = 1000
            var valid = true
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingSpaces().lowercased()
                if p.hasPrefix("q=") {
                    guard let q = parseQuality(p.dropFirst(2)) else {
                        valid = false
                        break
                    }
                    quality = q
                }
            }
            if valid { ranges.append(Range(tag: tag, quality: quality)) }
        }
        // Stable sort: equal qualities keep the header's order.
        return ranges.enumerated().sorted { a, b in
            a.element.quality != b.element.quality ? a.element.quality > b.element.quality : a.offset < b.offset
        }.map(\.element)
    }

    /// `0`, `1`, `0.x`..`0.xxx`, `1.`..`1.000` -> thousandths; anything else nil.
    static func parseQuality(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        if bytes.count == 1 { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes[2...] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// `*` or `alpha{1,8}(-alphanum{1,8})*` (lower-case).
    static func isRange(_ tag: String) -> Bool {
        if tag == "*" { return true }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (1...8).contains(primary.count),
            primary.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
        else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count)
                && subtag.utf8.allSatisfy {
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                }
        }
    }

    private static func lookup(_ range: String, in candidates: Set<String>) -> String? {
        var subtags = range.split(separator: "-").map(String.init)
        while !subtags.isEmpty {
            let tag = subtags.joined(separator: "-")
            if candidates.contains(tag) { return tag }
            subtags.removeLast()
            // RFC 4647 §3.4: never end on a single-character subtag (`x`, extension singletons).
            if let last = subtags.last, last.count == 1, subtags.count > 1 { subtags.removeLast() }
        }
        return candidates.filter { $0.hasPrefix(range + "-") }.min()
    }
}
