/// SHA-256 (FIPS 180-4) in pure Swift.
///
/// Why not OpenSSL or libsodium: `Core` has no C dependency, and the modules that
/// need a plain digest (association ETags, handoff-token hashes, key hashes) must
/// all compute the same bytes. Whoever stores or looks up a hashed token uses
/// `SHA256.hash(_:)` so that the edge (which writes handoffs) and the resolver
/// (which looks them up) cannot drift apart.
///
/// One-shot: `SHA256.hash(Array("abc".utf8))` or `SHA256.hash("abc".utf8)`.
/// Incremental: `var h = SHA256(); h.update(a); h.update(b); let d = h.finalize()`.
public struct SHA256: Sendable {
    /// Digest length in bytes.
    public static let digestCount = 32
    static let blockCount = 64

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var buffer: [UInt8] = []
    private var totalBytes: UInt64 = 0

    public init() {
        buffer.reserveCapacity(SHA256.blockCount)
    }

    /// The digest of `bytes` (32 bytes).
    public static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var h = SHA256()
        h.update(bytes)
        return h.finalize()
    }

    /// The digest of the UTF-8 bytes of `text`.
    public static func hash(_ text: String) -> [UInt8] {
        hash(text.utf8)
    }

    /// Lower-case hex of a digest (or of any bytes), for logs of non-secret values and tests.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        let handled: Bool? = bytes.withContiguousStorageIfAvailable { buf in
            update(UnsafeRawBufferPointer(buf))
            return true
        }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    public mutating func update(_ raw: UnsafeRawBufferPointer) {
        totalBytes &+= UInt64(raw.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(SHA256.blockCount - buffer.count, raw.count)
            buffer.append(contentsOf: raw[0..<take])
            offset = take
            if buffer.count == SHA256.blockCount {
                let block = buffer
                block.withUnsafeBytes { compress($0) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while raw.count - offset >= SHA256.blockCount {
            compress(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + SHA256.blockCount)]))
            offset += SHA256.blockCount
        }
        if offset < raw.count { buffer.append(contentsOf: raw[offset...]) }
    }

    /// The digest of everything passed to `update`. The value itself is not changed,
    /// so `finalize` can be called again (it returns the same digest).
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = totalBytes &* 8
        var tail = buffer
        tail.append(0x80)
        while tail.count % SHA256.blockCount != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                copy.compress(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + SHA256.blockCount)]))
                offset += SHA256.blockCount
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(SHA256.digestCount)
        let s = copy.state
        for word in [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7] {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                let j = i * 4
                w[i] =
                    UInt32(block[j]) << 24 | UInt32(block[j + 1]) << 16 | UInt32(block[j + 2]) << 8
                    | UInt32(block[j + 3])
            }
            for i in 16..<64 {
                let s0 = SHA256.rotr(w[i - 15], 7) ^ SHA256.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = SHA256.rotr(w[i - 2], 17) ^ SHA256.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = state
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let s1 = SHA256.rotr(e, 6) ^ SHA256.rotr(e, 11) ^ SHA256.rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = SHA256.rotr(a, 2) ^ SHA256.rotr(a, 13) ^ SHA256.rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    h = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
                state.7 &+ h
            )
        }
    }
}
