#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of up to 128 lower-case ASCII patterns, found in one pass over a text.
///
/// Patterns (at least two bytes each) are bucketed by a hash of their first two bytes;
/// the scan looks at each position of the text once and compares only the patterns of
/// its bucket, which is empty at most positions. For a 200-byte UA and ~100 patterns
/// that is a few dozen short compares instead of one search per pattern.
/// Built once (a `static let`) and immutable afterwards, so it is shared by all threads.
final class PatternSet: Sendable {
    /// Which patterns occur in a text (bit `i` for pattern `i`).
    struct Matches: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        @inline(__always) func contains(_ i: Int) -> Bool {
            i < 64 ? low & (1 << UInt64(i)) != 0 : high & (1 << UInt64(i - 64)) != 0
        }

        @inline(__always) mutating func insert(_ i: Int) {
            if i < 64 { low |= 1 << UInt64(i) } else { high |= 1 << UInt64(i - 64) }
        }

        /// The set of the given pattern indices, to test a whole group at once.
        init<S: Sequence>(_ indices: S) where S.Element == Int {
            for i in indices { insert(i) }
        }

        init() {}

        @inline(__always) func intersects(_ other: Matches) -> Bool {
            low & other.low != 0 || high & other.high != 0
        }
    }

    let patterns: [String]
    /// Every pattern's bytes, one after the other (never empty: the scan takes their address).
    private let bytes: [UInt8]
    private let offsets: [Int]  // count + 1
    private let bucketStart: [Int]  // bucketCount + 1
    private let bucketItems: [Int]  // never empty

    init(_ patterns: [String]) {
        precondition(patterns.count <= 128, "PatternSet holds at most 128 patterns")
        precondition(patterns.allSatisfy { $0.utf8.count >= 2 && $0.utf8.allSatisfy { !($0 >= 0x41 && $0 <= 0x5A) } })
        self.patterns = patterns
        let flat = patterns.flatMap { Array($0.utf8) }
        bytes = flat.isEmpty ? [0] : flat
        var offsets: [Int] = []
        var o = 0
        for p in patterns {
            offsets.append(o)
            o += p.utf8.count
        }
        offsets.append(o)
        self.offsets = offsets
        var buckets = [[Int]](repeating: [], count: PatternSet.bucketCount)
        for (i, p) in patterns.enumerated() {
            let u = Array(p.utf8)
            buckets[PatternSet.bucket(u[0], u[1])].append(i)
        }
        var bucketStart: [Int] = []
        var bucketItems: [Int] = []
        for b in 0..<PatternSet.bucketCount {
            bucketStart.append(bucketItems.count)
            bucketItems.append(contentsOf: buckets[b])
        }
        bucketStart.append(bucketItems.count)
        self.bucketStart = bucketStart
        self.bucketItems = bucketItems.isEmpty ? [0] : bucketItems
    }

    static let bucketCount = 1024

    /// Lower-case letters give distinct buckets for distinct pairs (`b1` spans less than 33).
    @inline(__always) static func bucket(_ b0: UInt8, _ b1: UInt8) -> Int {
        (Int(b0) &* 33 &+ Int(b1)) & (bucketCount - 1)
    }

    /// The index of `pattern` (which must be in the set).
    func index(of pattern: String) -> Int {
        guard let i = patterns.firstIndex(of: pattern) else { preconditionFailure("unknown pattern \(pattern)") }
        return i
    }

    /// Every pattern that occurs in `text` (already lower-cased).
    func scan(_ text: UnsafeBufferPointer<UInt8>) -> Matches {
        guard let base = text.baseAddress, text.count >= 2 else { return Matches() }
        // The tables through their addresses: no bounds check per step of the scan.
        return bytes.withUnsafeBufferPointer { bytes in
            offsets.withUnsafeBufferPointer { offsets in
                bucketStart.withUnsafeBufferPointer { bucketStart in
                    bucketItems.withUnsafeBufferPointer { bucketItems in
                        Self.scan(
                            base, text.count, bytes: bytes.baseAddress!, offsets: offsets.baseAddress!,
                            bucketStart: bucketStart.baseAddress!, bucketItems: bucketItems.baseAddress!)
                    }
                }
            }
        }
    }

    private static func scan(
        _ base: UnsafePointer<UInt8>, _ n: Int, bytes: UnsafePointer<UInt8>, offsets: UnsafePointer<Int>,
        bucketStart: UnsafePointer<Int>, bucketItems: UnsafePointer<Int>
    ) -> Matches {
        var m = Matches()
        for i in 0..<(n - 1) {
            let b = PatternSet.bucket(base[i], base[i + 1])
            var k = bucketStart[b]
            let end = bucketStart[b + 1]
            while k < end {
                let p = bucketItems[k]
                let o = offsets[p]
                let len = offsets[p + 1] - o
                if i + len <= n && base[i] == bytes[o] && base[i + 1] == bytes[o + 1]
                    && memcmp(base + i + 2, bytes + o + 2, len - 2) == 0
                {
                    m.insert(p)
                }
                k += 1
            }
        }
        return m
    }
}
