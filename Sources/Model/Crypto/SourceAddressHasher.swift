import CSodium

/// Keyed hash of a visitor's source address, so that iOS clicks can be matched
/// probabilistically without the address itself ever being stored.
///
/// Keyed BLAKE2b (`crypto_generichash`, 32-byte output) with a 32-byte secret that
/// the edge generates once and keeps in its data directory: without the key a
/// stored hash cannot be tested against guessed addresses (the IPv4 space is small).
/// The visit flow (writing clicks) and the resolver (reading candidates) must use
/// the same key, which is why this type lives in `Store`, below both.
public struct SourceAddressHasher: Sendable {
    public static let keyBytes = 32
    public static let outputBytes = 32

    private let key: [UInt8]

    /// `key` must be exactly 32 bytes of secret randomness.
    public init(key: [UInt8]) {
        precondition(key.count == SourceAddressHasher.keyBytes, "source address key must be 32 bytes")
        _ = sourceHasherSodiumReady
        self.key = key
    }

    /// A fresh random key, for the edge's first start and for tests.
    public static func generateKey() -> [UInt8] {
        _ = sourceHasherSodiumReady
        var key = [UInt8](repeating: 0, count: keyBytes)
        key.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, keyBytes) }
        return key
    }

    /// The 32-byte keyed hash of `address` after normalisation.
    public func hash(_ address: String) -> [UInt8] {
        let text = Array(SourceAddressHasher.normalize(address).utf8)
        var out = [UInt8](repeating: 0, count: SourceAddressHasher.outputBytes)
        out.withUnsafeMutableBufferPointer { o in
            text.withUnsafeBufferPointer { t in
                key.withUnsafeBufferPointer { k in
                    _ = crypto_generichash(
                        o.baseAddress!, o.count, t.baseAddress, UInt64(t.count), k.baseAddress, k.count)
                }
            }
        }
        return out
    }

    /// One spelling per address: lower-case, no brackets or zone, and an
    /// IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket reports
    /// an IPv4 peer) reduced to its IPv4 form, so that the visit and the open of
    /// the same device hash alike whichever socket family each arrived on.
    public static func normalize(_ address: String) -> String {
        // Fast path: a plain IPv4 address, or IPv6 already lower-case with no
        // brackets, zone or mapped IPv4 (what inet_ntop produces).
        if let plain = address.utf8.withContiguousStorageIfAvailable({ isPlain($0) }), plain { return address }
        var s = Substring(address)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        if s.first == "[", s.last == "]" { s = s.dropFirst().dropLast() }
        if let zone = s.firstIndex(of: "%") { s = s[..<zone] }
        let lowered = s.lowercased()
        for prefix in ["::ffff:", "0:0:0:0:0:ffff:"] where lowered.hasPrefix(prefix) {
            let rest = lowered.dropFirst(prefix.count)
            if isDottedQuad(rest) { return String(rest) }
        }
        return lowered
    }

    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        var dots = 0
        var colons = 0
        for c in bytes {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: ":"): colons += 1
            case UInt8(ascii: "a")...UInt8(ascii: "f"): continue
            default: return false
            }
        }
        // IPv4 (dots only), or IPv6 without an embedded IPv4 part (which may be mapped).
        return colons == 0 ? dots > 0 && !bytes.contains(where: { $0 >= UInt8(ascii: "a") }) : dots == 0
    }

    private static func isDottedQuad(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for p in parts {
            guard (1...3).contains(p.count), p.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let v = Int(p), v <= 255
            else { return false }
        }
        return true
    }
}

/// libsodium must be initialised once before use; a global `let` is initialised
/// lazily and exactly once, from whichever thread gets there first.
private let sourceHasherSodiumReady: Bool = {
    let ok = sodium_init() >= 0
    precondition(ok, "libsodium failed to initialise")
    return ok
}()
