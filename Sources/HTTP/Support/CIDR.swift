/// An address block (`10.0.0.0/8`, `2001:db8::/32`, or one address): the trusted-proxy list
/// (`BIQLI_EDGE_TRUSTED_PROXIES`), checked by the transport for PROXY headers and by the
/// edge for `X-Forwarded-For`.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    /// The block's first address; IPv4 blocks are IPv4-mapped (`::ffff:a.b.c.d`).
    public let network: IPAddress
    /// Leading bits that must match, of the 128-bit form (an IPv4 `/8` is 104).
    public let prefixLength: Int
    private let maskHigh: UInt64
    private let maskLow: UInt64

    public init?(_ text: String) {
        var addressPart = Substring(text)
        var prefix: Int?
        if let slash = text.firstIndex(of: "/") {
            addressPart = text[..<slash]
            guard let p = Int(text[text.index(after: slash)...]) else { return nil }
            prefix = p
        }
        guard let address = IPAddress(String(addressPart)) else { return nil }
        let isV4 = address.isIPv4 && !addressPart.contains(":")
        let length = prefix.map { isV4 ? $0 + 96 : $0 } ?? 128
        guard (isV4 ? 96...128 : 0...128).contains(length) else { return nil }
        maskHigh = length >= 64 ? .max : length == 0 ? 0 : .max << (64 - length)
        maskLow = length <= 64 ? 0 : length == 128 ? .max : .max << (128 - length)
        network = IPAddress(high: address.high & maskHigh, low: address.low & maskLow)
        prefixLength = length
    }

    public func contains(_ address: IPAddress) -> Bool {
        address.high & maskHigh == network.high && address.low & maskLow == network.low
    }

    /// Whether the address in `text` lies in the block (false when it is not an address).
    public func contains(_ address: String) -> Bool {
        guard let parsed = IPAddress(address) else { return false }
        return contains(parsed)
    }

    public var description: String {
        network.isIPv4 && prefixLength >= 96 ? "\(network)/\(prefixLength - 96)" : "\(network)/\(prefixLength)"
    }
}
