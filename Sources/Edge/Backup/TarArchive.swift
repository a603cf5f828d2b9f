#if canImport(Glibc)
import Glibc
#endif

/// The POSIX tar (ustar) format of a backup file, so that `tar -tvf` shows what a backup
/// holds: regular files only, written and read as streams (a store of gigabytes never
/// sits in memory). Sizes past ustar's 11 octal digits (8 GiB) take GNU's base-256 form,
/// which GNU tar and bsdtar read.
enum TarArchive {
    static let block = 512

    /// Why a backup file cannot be read as an archive.
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    /// One entry's header.
    struct Entry {
        var path: String
        var size: Int64
        var mode: UInt32
        var mtime: Int64
    }

    /// The 512-byte header of `entry`; nil when its path does not fit ustar's 100 bytes.
    static func header(_ entry: Entry) -> [UInt8]? {
        let name = Array(entry.path.utf8)
        guard !name.isEmpty, name.count <= 100 else { return nil }
        var h = [UInt8](repeating: 0, count: block)
        h.replaceSubrange(0..<name.count, with: name)
        put(octal: Int64(entry.mode & 0o7777), width: 8, at: 100, in: &h)
        put(octal: 0, width: 8, at: 108, in: &h)
        put(octal: 0, width: 8, at: 116, in: &h)
        if entry.size < 0o77777777777 {
            put(octal: entry.size, width: 12, at: 124, in: &h)
        } else {
            h[124] = 0x80
            var size = entry.size
            for i in stride(from: 135, to: 124, by: -1) {
                h[i] = UInt8(truncatingIfNeeded: size)
                size >>= 8
            }
        }
        put(octal: max(entry.mtime, 0), width: 12, at: 136, in: &h)
        h[156] = UInt8(ascii: "0")
        h.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        h.replaceSubrange(263..<265, with: Array("00".utf8))
        for i in 148..<156 { h[i] = UInt8(ascii: " ") }
        let sum = h.reduce(0) { $0 + Int64($1) }
        put(octal: sum, width: 7, at: 148, in: &h)
        h[155] = UInt8(ascii: " ")
        return h
    }

    /// Parses a header block: nil for an end-of-archive (all-zero) block.
    static func parse(_ h: [UInt8]) throws(FormatError) -> Entry? {
        guard h.count == block else { throw FormatError(description: "a truncated header") }
        if h.allSatisfy({ $0 == 0 }) { return nil }
        var sum: Int64 = 0
        for (i, byte) in h.enumerated() { sum += (148..<156).contains(i) ? 32 : Int64(byte) }
        guard let stored = octal(h[148..<156]), stored == sum else {
            throw FormatError(description: "a header whose checksum does not match (not a backup, or damaged)")
        }
        guard h[156] == UInt8(ascii: "0") || h[156] == 0 else {
            throw FormatError(description: "an entry that is not a regular file")
        }
        var name = String(decoding: h[0..<100].prefix { $0 != 0 }, as: UTF8.self)
        let prefix = String(decoding: h[345..<500].prefix { $0 != 0 }, as: UTF8.self)
        if !prefix.isEmpty { name = prefix + "/" + name }
        let size: Int64
        if h[124] & 0x80 != 0 {
            var s: Int64 = 0
            for i in 125..<136 { s = (s << 8) | Int64(h[i]) }
            size = s
        } else {
            guard let s = octal(h[124..<136]) else { throw FormatError(description: "an entry without a size") }
            size = s
        }
        return Entry(
            path: name, size: size, mode: UInt32(octal(h[100..<108]) ?? 0o600), mtime: octal(h[136..<148]) ?? 0)
    }

    /// Zero bytes that pad `size` bytes of data to a whole block.
    static func padding(after size: Int64) -> Int { Int((Int64(block) - size % Int64(block)) % Int64(block)) }

    private static func put(octal value: Int64, width: Int, at offset: Int, in h: inout [UInt8]) {
        // width - 1 digits, then NUL.
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width - 1)
        var v = value
        var i = digits.count - 1
        while v > 0 && i >= 0 {
            digits[i] = UInt8(ascii: "0") + UInt8(v & 7)
            v >>= 3
            i -= 1
        }
        h.replaceSubrange(offset..<offset + width - 1, with: digits)
        h[offset + width - 1] = 0
    }

    private static func octal(_ field: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        var seen = false
        for byte in field {
            if byte == 0 || byte == UInt8(ascii: " ") {
                if seen { break }
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + Int64(byte - UInt8(ascii: "0"))
            seen = true
        }
        return seen ? value : nil
    }
}
