import XCTest

@testable import HTTP

/// The PROXY protocol parser: every v1 and v2 form of HAProxy's specification, and what
/// breaks it. `ProxyTestBytes` builds v2 headers.
final class ProxyHeaderParserTests: XCTestCase {
    func parse(_ bytes: [UInt8]) -> ProxyHeaderParser.Result {
        bytes.withUnsafeBytes { ProxyHeaderParser.parse($0) }
    }

    func parse(_ text: String) -> ProxyHeaderParser.Result { parse(Array(text.utf8)) }

    func header(_ result: ProxyHeaderParser.Result, file: StaticString = #filePath, line: UInt = #line)
        -> ProxyHeader?
    {
        guard case .header(let h) = result else {
            XCTFail("not a header: \(result)", file: file, line: line)
            return nil
        }
        return h
    }

    /// Every proper prefix of a header asks for more bytes: none of it is mistaken for
    /// something else, and nothing past the header is needed to see its end.
    func assertEveryPrefixNeedsMore(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        for n in 0..<bytes.count {
            XCTAssertEqual(parse(Array(bytes[0..<n])), .needMore, "prefix of \(n) bytes", file: file, line: line)
        }
    }

    // MARK: v1

    func testV1TCP4NamesTheClientAndLeavesTheRequestThatFollows() throws {
        let line = "PROXY TCP4 203.0.113.9 192.0.2.1 51234 443\r\n"
        let h = try XCTUnwrap(header(parse(line + "GET / HTTP/1.1\r\n")))
        XCTAssertEqual(h.version, .v1)
        XCTAssertEqual(h.source?.description, "203.0.113.9")
        XCTAssertEqual(h.destination?.description, "192.0.2.1")
        XCTAssertEqual(h.sourcePort, 51234)
        XCTAssertEqual(h.destinationPort, 443)
        XCTAssertEqual(h.length, line.utf8.count)
        assertEveryPrefixNeedsMore(Array(line.utf8))
    }

    func testV1TCP6AndIPv4MappedAddresses() throws {
        let h = try XCTUnwrap(header(parse("PROXY TCP6 2001:db8::1 2001:db8::2 0 65535\r\n")))
        XCTAssertEqual(h.source?.description, "2001:db8::1")
        XCTAssertEqual(h.sourcePort, 0)
        XCTAssertEqual(h.destinationPort, 65535)
        let mapped = try XCTUnwrap(header(parse("PROXY TCP6 ::ffff:198.51.100.7 ::1 1 2\r\n")))
        XCTAssertEqual(mapped.source?.description, "198.51.100.7", "shown as IPv4, like a mapped peer")
    }

    func testV1UnknownKeepsThePeerAndIgnoresTheRestOfTheLine() throws {
        let short = try XCTUnwrap(header(parse("PROXY UNKNOWN\r\nGET")))
        XCTAssertNil(short.source)
        XCTAssertEqual(short.length, 15)
        // The specification's worst case: exactly 107 bytes.
        let longest =
            "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n"
        XCTAssertEqual(longest.utf8.count, 107)
        let h = try XCTUnwrap(header(parse(longest)))
        XCTAssertNil(h.source)
        XCTAssertEqual(h.length, 107)
        XCTAssertNotNil(header(parse("PROXY UNKNOWN anything at all \r\n")))
    }

    func testV1LongerThan107BytesIsRefusedWithoutWaitingForMore() {
        let endless = "PROXY UNKNOWN " + String(repeating: "a", count: 93)
        XCTAssertEqual(endless.utf8.count, 107)
        XCTAssertEqual(parse(endless), .invalid(.v1TooLong))
        XCTAssertEqual(parse(String(endless.dropLast())), .needMore)
        // CR as byte 107: its LF would be byte 108.
        XCTAssertEqual(parse(String(endless.dropLast()) + "\r"), .invalid(.v1TooLong))
        XCTAssertEqual(parse(String(endless.dropLast(2)) + "\r\n"), .header(ProxyHeader(version: .v1, length: 107)))
    }

    func testV1SyntaxErrors() {
        let cases: [(String, ProxyHeaderError)] = [
            ("PROXY TCP4  203.0.113.9 192.0.2.1 1 2\r\n", .v1Syntax),  // two spaces
            ("PROXY TCP4 203.0.113.9 192.0.2.1 1 2 \r\n", .v1Syntax),  // trailing space
            ("PROXY TCP4 203.0.113.9 192.0.2.1 1\r\n", .v1Syntax),  // a field missing
            ("PROXY TCP4 203.0.113.9 192.0.2.1 1 2 3\r\n", .v1Syntax),  // one too many
            ("PROXY TCP5 203.0.113.9 192.0.2.1 1 2\r\n", .v1Syntax),
            ("PROXY tcp4 203.0.113.9 192.0.2.1 1 2\r\n", .v1Syntax),
            ("PROXY \r\n", .v1Syntax),
            ("PROXY TCP4 203.0.113.9 192.0.2.1 1 2\rX", .v1Syntax),  // CR without LF
            ("PROXY TCP4 2001:db8::1 192.0.2.1 1 2\r\n", .v1Address),  // family mismatch
            ("PROXY TCP6 203.0.113.9 2001:db8::2 1 2\r\n", .v1Address),
            ("PROXY TCP4 203.0.113.300 192.0.2.1 1 2\r\n", .v1Address),
            ("PROXY TCP4 example.com 192.0.2.1 1 2\r\n", .v1Address),
            ("PROXY TCP4 203.0.113.9 192.0.2.1 65536 2\r\n", .v1Port),
            ("PROXY TCP4 203.0.113.9 192.0.2.1 8a 2\r\n", .v1Port),
            ("PROXY TCP4 203.0.113.9 192.0.2.1 -1 2\r\n", .v1Port),
            ("PROXY TCP4 203.0.113.9 192.0.2.1 1 000443\r\n", .v1Port),
        ]
        for (text, error) in cases {
            XCTAssertEqual(parse(text), .invalid(error), text.debugDescription)
        }
        var withNUL = Array("PROXY TCP4 203.0.113.9 192.0.2.1 1 2\r\n".utf8)
        withNUL[20] = 0
        XCTAssertEqual(parse(withNUL), .invalid(.v1Address))
    }

    func testBytesThatAreNoHeaderAreSaidSoAtTheFirstDifference() {
        XCTAssertEqual(parse("GET / HTTP/1.1\r\n"), .notProxy)
        XCTAssertEqual(parse("POST / HTTP/1.1\r\n"), .notProxy)
        XCTAssertEqual(parse("PO"), .notProxy)
        XCTAssertEqual(parse("PROXZ"), .notProxy)
        XCTAssertEqual(parse("proxy TCP4 1.2.3.4 1.2.3.4 1 2\r\n"), .notProxy)
        XCTAssertEqual(parse("PROXY\r\n"), .notProxy)
        XCTAssertEqual(parse([0x16, 0x03, 0x01, 0x02, 0x00]), .notProxy, "a TLS ClientHello")
        XCTAssertEqual(parse("\r\nGET / HTTP/1.1\r\n"), .notProxy, "an empty line before a request")
        XCTAssertEqual(parse("P"), .needMore)
        XCTAssertEqual(parse("\r\n"), .needMore)
    }

    // MARK: v2

    func testV2ProxyTCP4() throws {
        let bytes = ProxyTestBytes.v2(source: [203, 0, 113, 9], destination: [192, 0, 2, 1], ports: (51234, 443))
        let h = try XCTUnwrap(header(parse(bytes + Array("\u{16}\u{3}\u{1}".utf8))))
        XCTAssertEqual(h.version, .v2)
        XCTAssertEqual(h.source?.description, "203.0.113.9")
        XCTAssertEqual(h.destination?.description, "192.0.2.1")
        XCTAssertEqual(h.sourcePort, 51234)
        XCTAssertEqual(h.destinationPort, 443)
        XCTAssertEqual(h.length, 28)
        assertEveryPrefixNeedsMore(bytes)
    }

    func testV2ProxyTCP6() throws {
        var source = [UInt8](repeating: 0, count: 16)
        source[0] = 0x20
        source[1] = 0x01
        source[2] = 0x0D
        source[3] = 0xB8
        source[15] = 7
        let bytes = ProxyTestBytes.v2(
            family: 0x21, source: source, destination: [UInt8](repeating: 0, count: 15) + [1], ports: (1, 2))
        let h = try XCTUnwrap(header(parse(bytes)))
        XCTAssertEqual(h.source?.description, "2001:db8::7")
        XCTAssertEqual(h.destination?.description, "::1")
        XCTAssertEqual(h.length, 16 + 36)
        assertEveryPrefixNeedsMore(bytes)
    }

    func testV2TLVsAreSkippedAndCountInTheLength() throws {
        // PP2_TYPE_ALPN "h2", then AWS's VPC endpoint TLV: read past, not interpreted.
        let tlvs: [UInt8] = [0x01, 0x00, 0x02, 0x68, 0x32, 0xEA, 0x00, 0x05, 0x01, 0x76, 0x70, 0x63, 0x65]
        let bytes = ProxyTestBytes.v2(
            source: [198, 51, 100, 7], destination: [10, 0, 0, 1], ports: (9, 9), tlvs: tlvs)
        let h = try XCTUnwrap(header(parse(bytes + Array("GET".utf8))))
        XCTAssertEqual(h.source?.description, "198.51.100.7")
        XCTAssertEqual(h.length, 16 + 12 + tlvs.count)
        assertEveryPrefixNeedsMore(bytes)
    }

    func testV2LocalIsTheBalancersOwnConnectionAndKeepsThePeer() throws {
        let bare = ProxyTestBytes.v2(command: 0x20, family: 0x00, source: [], destination: [], ports: nil)
        let h = try XCTUnwrap(header(parse(bare)))
        XCTAssertNil(h.source)
        XCTAssertEqual(h.length, 16)
        // With addresses (HAProxy's health checks send them): still the real peer.
        let addressed = ProxyTestBytes.v2(
            command: 0x20, source: [1, 2, 3, 4], destination: [5, 6, 7, 8], ports: (1, 2))
        let local = try XCTUnwrap(header(parse(addressed)))
        XCTAssertNil(local.source)
        XCTAssertEqual(local.length, 28)
    }

    func testV2UnspecAndUnixFamiliesKeepThePeer() throws {
        let unspec = try XCTUnwrap(
            header(parse(ProxyTestBytes.v2(family: 0x00, source: [], destination: [], ports: nil))))
        XCTAssertNil(unspec.source)
        let unix = ProxyTestBytes.v2(
            family: 0x31, source: [UInt8](repeating: 0x2F, count: 108), destination: [UInt8](repeating: 0, count: 108),
            ports: nil)
        let h = try XCTUnwrap(header(parse(unix)))
        XCTAssertNil(h.source)
        XCTAssertEqual(h.length, 16 + 216)
    }

    func testV2Errors() {
        let v4 = ([UInt8](repeating: 1, count: 4), [UInt8](repeating: 2, count: 4))
        XCTAssertEqual(
            parse(ProxyTestBytes.v2(command: 0x11, source: v4.0, destination: v4.1, ports: (1, 1))),
            .invalid(.v2Version))
        XCTAssertEqual(
            parse(ProxyTestBytes.v2(command: 0x22, source: v4.0, destination: v4.1, ports: (1, 1))),
            .invalid(.v2Command))
        XCTAssertEqual(
            parse(ProxyTestBytes.v2(family: 0x41, source: v4.0, destination: v4.1, ports: (1, 1))),
            .invalid(.v2Family))
        XCTAssertEqual(
            parse(ProxyTestBytes.v2(family: 0x12, source: v4.0, destination: v4.1, ports: (1, 1))),
            .invalid(.v2Family), "UDP on a TCP connection")
        XCTAssertEqual(
            parse(ProxyTestBytes.v2(family: 0x21, source: v4.0, destination: v4.1, ports: (1, 1))),
            .invalid(.v2AddressesTruncated), "IPv6 needs 36 bytes")
        // Too long is known from the fixed 16 bytes, before the rest arrives.
        var long = ProxyTestBytes.v2(source: v4.0, destination: v4.1, ports: (1, 1))
        long[14] = 0x04
        long[15] = 0x01
        XCTAssertEqual(parse(Array(long[0..<16])), .invalid(.v2TooLong))
        long[14] = 0x04
        long[15] = 0x00
        XCTAssertEqual(parse(long), .needMore, "1024 bytes of payload are allowed")
    }

    func testV2SignatureMismatchIsNoHeader() {
        var bytes = ProxyTestBytes.v2(source: [1, 2, 3, 4], destination: [5, 6, 7, 8], ports: (1, 2))
        bytes[7] = UInt8(ascii: "q")
        XCTAssertEqual(parse(bytes), .notProxy)
        XCTAssertEqual(parse(Array(bytes[0..<7])), .needMore)
        XCTAssertEqual(parse(Array("\r\n\r\nGET".utf8)), .notProxy)
    }

    func testHasSignature() {
        func has(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { ProxyHeaderParser.hasSignature($0) } }
        XCTAssertTrue(has(Array("PROXY ".utf8)))
        XCTAssertFalse(has(Array("PROXY".utf8)))
        XCTAssertFalse(has(Array("GET / ".utf8)))
        let v2 = ProxyTestBytes.v2(source: [1, 2, 3, 4], destination: [5, 6, 7, 8], ports: (1, 2))
        XCTAssertTrue(has(Array(v2[0..<12])))
        XCTAssertFalse(has(Array(v2[0..<11])))
    }
}

/// PROXY protocol v2 headers for tests.
enum ProxyTestBytes {
    static let signature: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A]

    /// `command` is the version/command byte (0x21 PROXY, 0x20 LOCAL); `family` the
    /// family/transport byte (0x11 TCP over IPv4, 0x21 over IPv6, 0x31 UNIX stream).
    static func v2(
        command: UInt8 = 0x21, family: UInt8 = 0x11, source: [UInt8], destination: [UInt8], ports: (UInt16, UInt16)?,
        tlvs: [UInt8] = []
    ) -> [UInt8] {
        var payload = source + destination
        if let (s, d) = ports { payload += [UInt8(s >> 8), UInt8(s & 0xFF), UInt8(d >> 8), UInt8(d & 0xFF)] }
        payload += tlvs
        return signature + [command, family, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)] + payload
    }
}
