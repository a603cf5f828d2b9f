#if canImport(Glibc)
import Glibc
#endif

/// Parses a PROXY protocol header (v1 or v2) at the start of what a connection has sent
/// so far. Pure, no I/O, no allocation: the caller peeks at the socket, parses the bytes
/// seen, and takes from the socket only what the answer says is the header's, so that a
/// ClientHello or a request that follows stays in the socket for OpenSSL or the parser.
///
/// Called again with more bytes after `.needMore` (a header is at most
/// `maxLength` bytes, and arrives whole from any balancer but a broken one: re-parsing
/// from the start costs less than keeping state).
///
/// Decisions:
/// - v1 is strict: `PROXY` SP (`TCP4` | `TCP6`) SP src SP dst SP sport SP dport CRLF, or
///   `PROXY UNKNOWN` followed by anything up to CRLF; single spaces; at most 107 bytes.
/// - v2: version 2; `LOCAL` (the balancer's own health check) keeps the real peer;
///   `PROXY` over `AF_INET` or `AF_INET6` with a stream transport names the client;
///   `AF_UNSPEC` and `AF_UNIX` keep the real peer; TLVs are skipped unread; at most
///   `maxV2PayloadBytes` after the fixed part.
enum ProxyHeaderParser {
    enum Result: Equatable, Sendable {
        /// Every byte seen belongs to a header whose end lies further: take them and wait.
        case needMore
        /// The bytes do not start with either signature.
        case notProxy
        case header(ProxyHeader)
        case invalid(ProxyHeaderError)
    }

    /// v1's longest line, CRLF included (the specification's figure).
    static let v1MaxLength = 107
    /// The longest v2 payload (addresses and TLVs) accepted. Addresses take at most 216
    /// bytes (`AF_UNIX`); the rest is room for the TLVs balancers add (AWS's endpoint ID,
    /// HAProxy's TLS facts), which the specification leaves unbounded.
    static let maxV2PayloadBytes = 1024
    /// The most bytes a header can take: what one peek at the socket looks at.
    static let maxLength = 16 + maxV2PayloadBytes

    static let v1Prefix: StaticString = "PROXY "
    /// `\r\n\r\n\0\r\nQUIT\n`.
    static let v2Signature: (UInt64, UInt32) = (0x0D0A_0D0A_000D_0A51, 0x5549_540A)

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Result {
        guard let first = bytes.first else { return .needMore }
        switch first {
        case UInt8(ascii: "P"): return parseV1(bytes)
        case 0x0D: return parseV2(bytes)
        default: return .notProxy
        }
    }

    /// The bytes hold a whole signature (`PROXY ` or v2's 12 bytes): whatever follows, the
    /// peer is speaking the PROXY protocol.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (bytes.count >= 6 && matchesV1Prefix(bytes)) || (bytes.count >= 12 && matchesV2Signature(bytes))
    }

    // MARK: v1

    private static func matchesV1Prefix(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let prefix = UnsafeRawBufferPointer(start: v1Prefix.utf8Start, count: v1Prefix.utf8CodeUnitCount)
        for i in 0..<min(bytes.count, prefix.count) where bytes[i] != prefix[i] { return false }
        return true
    }

    private static func parseV1(_ bytes: UnsafeRawBufferPointer) -> Result {
        guard matchesV1Prefix(bytes) else { return .notProxy }
        guard bytes.count > 6 else { return .needMore }
        var cr = -1
        for i in 6..<min(bytes.count, v1MaxLength) where bytes[i] == 0x0D {
            cr = i
            break
        }
        // The line ends at CR LF: neither may lie past byte 107.
        guard cr >= 0 else { return bytes.count >= v1MaxLength ? .invalid(.v1TooLong) : .needMore }
        guard cr + 1 < v1MaxLength else { return .invalid(.v1TooLong) }
        guard cr + 1 < bytes.count else { return .needMore }
        guard bytes[cr + 1] == 0x0A else { return .invalid(.v1Syntax) }
        let length = cr + 2
        var fields = V1Fields(bytes, from: 6, to: cr)

        guard let proto = fields.next() else { return .invalid(.v1Syntax) }
        // UNKNOWN: "the receiver must ignore anything presented before the CRLF".
        if equals(bytes, proto, "UNKNOWN") { return .header(ProxyHeader(version: .v1, length: length)) }
        let family: Int32
        if equals(bytes, proto, "TCP4") {
            family = AF_INET
        } else if equals(bytes, proto, "TCP6") {
            family = AF_INET6
        } else {
            return .invalid(.v1Syntax)
        }
        guard let src = fields.next(), let dst = fields.next(), let sport = fields.next(), let dport = fields.next(),
            fields.atEnd
        else { return .invalid(.v1Syntax) }
        guard let source = address(bytes, src, family), let destination = address(bytes, dst, family) else {
            return .invalid(.v1Address)
        }
        guard let sourcePort = port(bytes, sport), let destinationPort = port(bytes, dport) else {
            return .invalid(.v1Port)
        }
        return .header(
            ProxyHeader(
                version: .v1, source: source, sourcePort: sourcePort, destination: destination,
                destinationPort: destinationPort, length: length))
    }

    /// The fields of a v1 line, split on single spaces; an empty field (two spaces, a
    /// leading or trailing space) ends the iteration with `malformed` set, and a trailing
    /// space leaves `atEnd` false.
    private struct V1Fields {
        let bytes: UnsafeRawBufferPointer
        var position: Int
        let end: Int
        var malformed = false

        init(_ bytes: UnsafeRawBufferPointer, from: Int, to end: Int) {
            self.bytes = bytes
            self.position = from
            self.end = end
        }

        var atEnd: Bool { !malformed && position > end }

        mutating func next() -> Range<Int>? {
            guard !malformed, position <= end else { return nil }
            let start = position
            while position < end && bytes[position] != 0x20 { position += 1 }
            let field = start..<position
            position += 1  // past the space (or past the end)
            if field.isEmpty {
                malformed = true
                return nil
            }
            return field
        }
    }

    private static func equals(_ bytes: UnsafeRawBufferPointer, _ field: Range<Int>, _ text: StaticString) -> Bool {
        guard field.count == text.utf8CodeUnitCount else { return false }
        let p = text.utf8Start
        for (i, at) in field.enumerated() where bytes[at] != p[i] { return false }
        return true
    }

    private static func address(_ bytes: UnsafeRawBufferPointer, _ field: Range<Int>, _ family: Int32) -> IPAddress? {
        // Longest IPv6 text (an IPv4-mapped one) is 45 characters.
        guard field.count <= 45 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text -> IPAddress? in
            for (i, at) in field.enumerated() {
                let byte = bytes[at]
                // inet_pton would stop at a NUL; nothing but address characters belongs here.
                guard byte > 0x20 && byte < 0x7F else { return nil }
                text[i] = CChar(bitPattern: byte)
            }
            text[field.count] = 0
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { out -> IPAddress? in
                guard inet_pton(family, text.baseAddress, out.baseAddress) == 1 else { return nil }
                let raw = UnsafeRawPointer(out.baseAddress!)
                return family == AF_INET ? IPAddress(ipv4: raw) : IPAddress(ipv6: raw)
            }
        }
    }

    private static func port(_ bytes: UnsafeRawBufferPointer, _ field: Range<Int>) -> UInt16? {
        guard field.count <= 5 else { return nil }
        var value = 0
        for at in field {
            let byte = bytes[at]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value <= 65535 ? UInt16(value) : nil
    }

    // MARK: v2

    private static func matchesV2Signature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var signature = (v2Signature.0.bigEndian, v2Signature.1.bigEndian)
        return withUnsafeBytes(of: &signature) { sig in
            for i in 0..<min(bytes.count, 12) where bytes[i] != sig[i] { return false }
            return true
        }
    }

    private static func parseV2(_ bytes: UnsafeRawBufferPointer) -> Result {
        guard matchesV2Signature(bytes) else { return .notProxy }
        guard bytes.count >= 16 else { return .needMore }
        let versionCommand = bytes[12]
        guard versionCommand >> 4 == 2 else { return .invalid(.v2Version) }
        let command = versionCommand & 0x0F
        guard command <= 1 else { return .invalid(.v2Command) }
        let family = bytes[13] >> 4
        let transport = bytes[13] & 0x0F
        let payload = Int(bytes[14]) << 8 | Int(bytes[15])
        guard payload <= maxV2PayloadBytes else { return .invalid(.v2TooLong) }
        let length = 16 + payload
        // LOCAL: "the receiver must accept this connection as valid and must use the real
        // connection endpoints and discard the protocol block including the family".
        if command == 0 {
            return bytes.count < length ? .needMore : .header(ProxyHeader(version: .v2, length: length))
        }
        let needed: Int
        switch family {
        case 0: needed = 0  // AF_UNSPEC: an unknown protocol; the real peer stands
        case 1, 2:
            guard transport == 1 else { return .invalid(.v2Family) }  // STREAM only, on a TCP connection
            needed = family == 1 ? 12 : 36
        case 3: needed = 216  // AF_UNIX: no IP to show; the real peer stands
        default: return .invalid(.v2Family)
        }
        guard payload >= needed else { return .invalid(.v2AddressesTruncated) }
        guard bytes.count >= length else { return .needMore }
        guard family == 1 || family == 2 else { return .header(ProxyHeader(version: .v2, length: length)) }
        let base = bytes.baseAddress! + 16
        let size = family == 1 ? 4 : 16
        let source = family == 1 ? IPAddress(ipv4: base) : IPAddress(ipv6: base)
        let destination = family == 1 ? IPAddress(ipv4: base + size) : IPAddress(ipv6: base + size)
        let ports = base + 2 * size
        return .header(
            ProxyHeader(
                version: .v2, source: source, sourcePort: UInt16(bigEndian: ports.loadUnaligned(as: UInt16.self)),
                destination: destination,
                destinationPort: UInt16(bigEndian: ports.loadUnaligned(fromByteOffset: 2, as: UInt16.self)),
                length: length))
    }
}
