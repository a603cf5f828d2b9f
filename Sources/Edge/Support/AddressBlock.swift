import HTTP

/// The addresses a per-address rate limit counts as one client (issue 33 item 7): an IPv4
/// address alone, an IPv6 address with every other address of its /64. A /64 is what one
/// subscriber's link is given (a home's router, a phone), and its host half is the
/// client's to choose: counted apart, each of its 2^64 addresses would have a bucket of its
/// own, and one client would never meet the limit.
enum AddressBlock {
    /// The bits of an IPv6 address that name its client.
    static let ipv6PrefixLength = 64

    /// The rate limit's name for `address`: an IPv4 address in its usual text (an
    /// IPv4-mapped IPv6 one as plain IPv4), an IPv6 address as its /64
    /// (`2001:db8:1:2::/64`); anything else as it is.
    static func limitKey(_ address: String) -> String {
        guard let ip = IPAddress(address) else { return address }
        if ip.isIPv4 { return ip.description }
        return IPAddress(high: ip.high, low: 0).description + "/\(ipv6PrefixLength)"
    }
}
