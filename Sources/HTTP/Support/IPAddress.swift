#if canImport(Glibc)
import Glibc
#endif

/// An IP address as 16 bytes, IPv4 as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), in two integers:
/// comparing and masking it costs no allocation, so a peer can be checked against the
/// trusted proxies at accept, and a PROXY header's addresses parsed, without touching the heap.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes 0-7 and 8-15 of the address, most significant first.
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The 4 bytes (network order) at `bytes`.
    init(ipv4 bytes: UnsafeRawPointer) {
        high = 0
        low = 0xFFFF_0000_0000 | UInt64(UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self)))
    }

    /// The 16 bytes (network order) at `bytes`.
    init(ipv6 bytes: UnsafeRawPointer) {
        high = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
        low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// An IPv4 or IPv6 address in text (`203.0.113.9`, `2001:db8::1`); nil otherwise.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = withUnsafeBytes(of: &v4) { IPAddress(ipv4: $0.baseAddress!) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = withUnsafeBytes(of: &v6) { IPAddress(ipv6: $0.baseAddress!) }
            return
        }
        return nil
    }

    /// The address of an accepted socket's peer; nil for a family other than IP.
    init?(_ storage: inout sockaddr_storage) {
        switch Int32(storage.ss_family) {
        case AF_INET:
            self = withUnsafeBytes(of: &storage) { raw in
                IPAddress(ipv4: raw.baseAddress! + MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!)
            }
        case AF_INET6:
            self = withUnsafeBytes(of: &storage) { raw in
                IPAddress(ipv6: raw.baseAddress! + MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!)
            }
        default:
            return nil
        }
    }

    /// An IPv4 address (stored IPv4-mapped).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The text form, IPv4-mapped addresses as plain IPv4 (as `RequestContext.peerAddress` shows peers).
    public var description: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
            var bytes = (high.bigEndian, low.bigEndian)
            return withUnsafeBytes(of: &bytes) { raw -> String in
                if isIPv4 {
                    guard inet_ntop(AF_INET, raw.baseAddress! + 12, text.baseAddress, socklen_t(text.count)) != nil
                    else { return "unknown" }
                } else {
                    guard inet_ntop(AF_INET6, raw.baseAddress!, text.baseAddress, socklen_t(text.count)) != nil
                    else { return "unknown" }
                }
                return String(cString: text.baseAddress!)
            }
        }
    }
}
