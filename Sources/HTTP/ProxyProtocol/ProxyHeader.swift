/// A PROXY protocol header (HAProxy's specification, versions 1 and 2): what a load
/// balancer that passes TCP through says about the connection before the client's first
/// byte, so that the edge sees the visitor's address instead of the balancer's.
struct ProxyHeader: Equatable, Sendable {
    enum Version: Int, Sendable {
        case v1 = 1
        case v2 = 2
    }

    let version: Version
    /// The client's address as the balancer saw it; nil when the header names none (a v2
    /// `LOCAL` command, the balancer's own health check; v1 `UNKNOWN`; a v2 family that is
    /// not IP): the connection's own peer then stands.
    let source: IPAddress?
    let sourcePort: UInt16
    /// The address the client connected to (the balancer's); kept for tests and logs.
    let destination: IPAddress?
    let destinationPort: UInt16
    /// Bytes the header occupies at the start of the connection, TLVs included.
    let length: Int

    init(
        version: Version, source: IPAddress? = nil, sourcePort: UInt16 = 0, destination: IPAddress? = nil,
        destinationPort: UInt16 = 0, length: Int
    ) {
        self.version = version
        self.source = source
        self.sourcePort = sourcePort
        self.destination = destination
        self.destinationPort = destinationPort
        self.length = length
    }
}

/// Why bytes that start like a PROXY header are not one. Every case closes the connection.
enum ProxyHeaderError: Error, Equatable, Sendable {
    /// v1: no CRLF within 107 bytes.
    case v1TooLong
    /// v1: not `PROXY TCP4|TCP6|UNKNOWN ...` with single spaces and a CRLF.
    case v1Syntax
    /// v1: an address that is not of the protocol's family.
    case v1Address
    /// v1: a port that is not a decimal from 0 to 65535.
    case v1Port
    /// v2: a version other than 2.
    case v2Version
    /// v2: a command other than `LOCAL` or `PROXY`.
    case v2Command
    /// v2: an unknown address family, or an IP family over a transport other than a stream.
    case v2Family
    /// v2: more than `ProxyHeaderParser.maxV2PayloadBytes` after the fixed 16 bytes.
    case v2TooLong
    /// v2: a length too short for the addresses of its family.
    case v2AddressesTruncated
}
