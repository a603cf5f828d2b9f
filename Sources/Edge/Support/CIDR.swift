#if canImport(Glibc)
import Glibc
#endif

/// An address block (`10.0.0.0/8`, `2001:db8::/32`, or one address) for the
/// trusted-proxy list.
struct CIDR: Sendable, Equatable {
    /// 16 bytes; IPv4 is stored IPv4-mapped (`::ffff:a.b.c.d`).
    let network: [UInt8]
    let prefixLength: Int

    init?(_ text: String) {
        var addressPart = Substring(text)
        var prefix: Int?
        if let slash = text.firstIndex(of: "/") {
            addressPart = text[..<slash]
            guard let p = Int(text[text.index(after: slash)...]) else { return nil }
            prefix = p
        }
        guard let (bytes, isV4) = CIDR.parseAddress(String(addressPart)) else { return nil }
        let length = prefix.map { isV4 ? $0 + 96 : $0 } ?? 128
        guard (isV4 ? 96...128 : 0...128).contains(length) else { return nil }
        self.network = CIDR.mask(bytes, length)
        self.prefixLength = length
    }

    func contains(_ address: String) -> Bool {
        guard let (bytes, _) = CIDR.parseAddress(address) else { return false }
        return CIDR.mask(bytes, prefixLength) == network
    }

    /// 16 bytes for an IPv4 or IPv6 address text, and whether it was IPv4.
    static func parseAddress(_ text: String) -> ([UInt8], Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let b = withUnsafeBytes(of: v4.s_addr) { Array($0) }
            return ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + b, true)
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return (withUnsafeBytes(of: v6) { Array($0) }, false)
        }
        return nil
    }

    private static func mask(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        var out = bytes
        for i in 0..<16 {
            let bits = max(0, min(8, length - i * 8))
            out[i] &= bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
        return out
    }
}
