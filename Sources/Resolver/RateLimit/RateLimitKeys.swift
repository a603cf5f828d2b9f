import CSodium

/// The bucket key of a text: 64 bits of SipHash-2-4 (libsodium's `crypto_shorthash`)
/// under a 16-byte seed. On PostgreSQL every node of the fleet holds the same seed
/// (`FleetCounters.keySeed`), so that a key names the same bucket everywhere; alone,
/// the seed is the process's own.
///
/// One pass over the bytes per request, no string built for composite keys. Two texts
/// with the same hash share a bucket: with a secret seed an attacker cannot aim for it,
/// and by chance it is about one in 2^64 per pair. The keys leave the process only as
/// these hashes (`rate_counts`), never as addresses, instance IDs or token hashes.
struct RateLimitKeys: Sendable {
    private let seed: (UInt64, UInt64)

    /// `seed`: at least 16 bytes (the first 16 are used).
    init(seed: [UInt8]) {
        precondition(seed.count >= 16, "rate-limit key seed must be 16 bytes")
        var a: UInt64 = 0
        var b: UInt64 = 0
        for i in 0..<8 {
            a |= UInt64(seed[i]) << (8 * UInt64(i))
            b |= UInt64(seed[8 + i]) << (8 * UInt64(i))
        }
        self.seed = (a, b)
    }

    /// A seed of this process alone.
    static func random() -> RateLimitKeys { RateLimitKeys(seed: Sodium.randomBytes(16)) }

    /// The key of one text.
    func key(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in hash(UnsafeRawBufferPointer(bytes)) }
    }

    /// The key of two texts together, length-delimited (`"ab", "c"` is not `"a", "bc"`).
    func key(_ a: String, _ b: String) -> UInt64 {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                withUnsafeTemporaryAllocation(byteCount: 4 + x.count + y.count, alignment: 8) { buffer in
                    let base = buffer.baseAddress!
                    var length = UInt32(truncatingIfNeeded: x.count).littleEndian
                    withUnsafeBytes(of: &length) { base.copyMemory(from: $0.baseAddress!, byteCount: 4) }
                    if let p = x.baseAddress { (base + 4).copyMemory(from: p, byteCount: x.count) }
                    if let p = y.baseAddress { (base + 4 + x.count).copyMemory(from: p, byteCount: y.count) }
                    return hash(UnsafeRawBufferPointer(buffer))
                }
            }
        }
    }

    /// The key of bytes (a token's hash).
    func key(bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0) }
    }

    private func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var out: UInt64 = 0
        // The seed's bytes in their original order, whatever the machine's.
        var key = (seed.0.littleEndian, seed.1.littleEndian)
        withUnsafeMutableBytes(of: &out) { o in
            withUnsafeBytes(of: &key) { k in
                _ = crypto_shorthash(
                    o.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count),
                    k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return UInt64(littleEndian: out)
    }
}
