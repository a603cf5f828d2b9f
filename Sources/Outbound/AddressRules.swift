/// Which destination addresses an outgoing request may reach (decision 0028): webhooks
/// must not become a way into the operator's network, so every address their host
/// resolves to must be public. Pure, so that every range is tested without a socket.
public enum AddressRules {
    /// Why `bytes` (4 bytes of IPv4 or 16 of IPv6, network order) is not public; nil
    /// when it is.
    public static func nonPublicReason(_ bytes: [UInt8]) -> String? {
        if bytes.count == 4 { return ipv4Reason(bytes[0], bytes[1], bytes[2], bytes[3]) }
        guard bytes.count == 16 else { return "not an IP address" }
        let b = bytes
        if b.allSatisfy({ $0 == 0 }) { return "unspecified" }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return "loopback" }
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 rules.
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF {
            return ipv4Reason(b[12], b[13], b[14], b[15]).map { "IPv4-mapped " + $0 }
        }
        if b[0..<12].allSatisfy({ $0 == 0 }) { return "IPv4-compatible" }
        // NAT64 (64:ff9b::/96 and the local 64:ff9b:1::/48): the embedded IPv4 address.
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B {
            if b[4] == 0 && b[5] == 1 { return "NAT64 local-use" }
            return ipv4Reason(b[12], b[13], b[14], b[15]).map { "NAT64 " + $0 }
        }
        // 6to4 (2002::/16): the embedded IPv4 address.
        if b[0] == 0x20 && b[1] == 0x02 { return ipv4Reason(b[2], b[3], b[4], b[5]).map { "6to4 " + $0 } }
        if b[0] == 0xFF { return "multicast" }
        if b[0] & 0xFE == 0xFC { return "unique local" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return "link-local" }
        if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return "site-local" }
        if b[0] == 0x01 && b[1] == 0x00 && b[2..<8].allSatisfy({ $0 == 0 }) { return "discard-only" }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8 { return "documentation" }
        // 2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID...).
        if b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02 { return "IETF protocol assignment" }
        // Only global unicast (2000::/3) is public.
        if b[0] & 0xE0 != 0x20 { return "reserved" }
        return nil
    }

    static func ipv4Reason(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> String? {
        switch a {
        case 0: return "unspecified (0.0.0.0/8)"
        case 10: return "private (10.0.0.0/8)"
        case 127: return "loopback (127.0.0.0/8)"
        case 100 where b & 0xC0 == 64: return "shared (100.64.0.0/10)"
        case 169 where b == 254: return "link-local (169.254.0.0/16)"
        case 172 where b & 0xF0 == 16: return "private (172.16.0.0/12)"
        case 192 where b == 168: return "private (192.168.0.0/16)"
        case 192 where b == 0 && c == 0: return "IETF protocol assignment (192.0.0.0/24)"
        case 192 where b == 0 && c == 2: return "documentation (192.0.2.0/24)"
        case 192 where b == 88 && c == 99: return "6to4 relay (192.88.99.0/24)"
        case 198 where b & 0xFE == 18: return "benchmarking (198.18.0.0/15)"
        case 198 where b == 51 && c == 100: return "documentation (198.51.100.0/24)"
        case 203 where b == 0 && c == 113: return "documentation (203.0.113.0/24)"
        case 224...239: return "multicast (224.0.0.0/4)"
        case 240...255: return a == 255 && b == 255 && c == 255 && d == 255 ? "broadcast" : "reserved (240.0.0.0/4)"
        default: return nil
        }
    }
}
