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
        let excluded = Set(ranges.lazy.filter { $0.quality == 0 }.map(\.tag))
        let candidates = excluded.isEmpty ? available : available.subtracting(excluded)
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
        // Bytes, ASCII only: tags and q-values are ASCII by grammar, anything else is malformed.
        let bytes = Array(header.utf8.prefix(maxHeaderBytes))
        var ranges: [Range] = []
        for item in bytes.split(separator: UInt8(ascii: ",")).prefix(maxItems) {
            let parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            let tagBytes = trimmedLowercase(parts[0])
            guard isRange(tagBytes) else { continue }
            var quality = 1000
            var valid = true
            for parameter in parts.dropFirst() {
                let p = trimmedLowercase(parameter)
                if p.count >= 2 && p[0] == UInt8(ascii: "q") && p[1] == UInt8(ascii: "=") {
                    guard let q = parseQuality(p[2...]) else {
                        valid = false
                        break
                    }
                    quality = q
                }
            }
            if valid { ranges.append(Range(tag: String(decoding: tagBytes, as: UTF8.self), quality: quality)) }
        }
        // Stable sort: equal qualities keep the header's order (usually already the case).
        if zip(ranges, ranges.dropFirst()).allSatisfy({ $0.quality >= $1.quality }) { return ranges }
        return ranges.enumerated().sorted { a, b in
            a.element.quality != b.element.quality ? a.element.quality > b.element.quality : a.offset < b.offset
        }.map(\.element)
    }

    /// `0`, `1`, `0.x`..`0.xxx`, `1.`..`1.000` -> thousandths; anything else nil.
    static func parseQuality(_ text: Substring) -> Int? {
        parseQuality(Array(text.utf8)[...])
    }

    static func parseQuality(_ bytes: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(bytes)
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
        isRange(Array(tag.utf8))
    }

    static func isRange(_ tag: [UInt8]) -> Bool {
        if tag == [UInt8(ascii: "*")] { return true }
        let subtags = tag.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard let primary = subtags.first, (1...8).contains(primary.count), primary.allSatisfy(isLower) else {
            return false
        }
        return subtags.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { isLower($0) || isDigit($0) }
        }
    }

    private static func isLower(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// Without surrounding spaces and tabs, ASCII upper-case folded to lower-case.
    private static func trimmedLowercase(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last].map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }

    private static func lookup(_ range: String, in candidates: Set<String>) -> String? {
        var tag = Substring(range)
        while true {
            if candidates.contains(String(tag)) { return String(tag) }
            guard let dash = tag.lastIndex(of: "-") else { break }
            tag = tag[..<dash]
            // RFC 4647 §3.4: never end on a single-character subtag (`x`, extension singletons).
            if let previous = tag.lastIndex(of: "-"), tag.distance(from: previous, to: tag.endIndex) == 2 {
                tag = tag[..<previous]
            }
        }
        let prefix = range + "-"
        return candidates.filter { $0.hasPrefix(prefix) }.min()
    }
}
