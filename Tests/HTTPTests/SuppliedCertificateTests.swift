import CSystem
import Foundation
import HTTPMessages
import Synchronization
import XCTest

@testable import HTTP

/// Certificates held in memory (ordered through ACME) beside the directory's: they serve
/// their name unless an operator's valid CA-issued file covers it; and the certificates
/// presented only to clients that offer `acme-tls/1` (TLS-ALPN-01).
final class SuppliedCertificateTests: XCTestCase {
    var pki: TestPKI!
    var dir = ""

    override func setUpWithError() throws {
        pki = try TestPKI()
        dir = pki.dir + "/certs"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(csys_write_self_signed_pem(dir + "/default.pem", "fallback.test", 1), 1)
    }

    override func tearDownWithError() throws { pki.remove() }

    private func supplied(_ host: String, version: String = "1") throws -> SuppliedCertificate {
        SuppliedCertificate(hostname: host, pem: Array(try pki.leaf([host]).utf8), version: version)
    }

    func testASuppliedCertificateServesItsNameAndSaysWhereItComesFrom() throws {
        let set = CertificateSet.load(directory: dir, supplied: [try supplied("go.example.test")])
        XCTAssertTrue(set.covers("go.example.test"))
        XCTAssertEqual(set.origin(of: "go.example.test"), .supplied)
        XCTAssertEqual(set.issuer(of: "go.example.test"), "CN=Test PKI CA")
        XCTAssertFalse(set.directoryCovers("go.example.test"))
        XCTAssertEqual(set.origin(of: "fallback.test"), .selfSigned)
        XCTAssertNil(set.origin(of: "other.example.test"), "the default serves it, not by name")
        XCTAssertEqual(set.issues, [])
    }

    func testAnOperatorsCertificateInTheDirectoryWinsExactOrWildcard() throws {
        try pki.leaf(["go.example.test"]).write(toFile: dir + "/go.example.test.pem", atomically: true, encoding: .utf8)
        try pki.leaf(["*.wild.test"]).write(toFile: dir + "/*.wild.test.pem", atomically: true, encoding: .utf8)
        let ordered = try supplied("go.example.test")
        let set = CertificateSet.load(directory: dir, supplied: [ordered, try supplied("a.wild.test")])
        XCTAssertEqual(set.origin(of: "go.example.test"), .directory)
        XCTAssertTrue(set.directoryCovers("go.example.test"))
        XCTAssertTrue(set.context(for: "go.example.test")?.path.hasSuffix("go.example.test.pem") ?? false)
        XCTAssertEqual(set.origin(of: "a.wild.test"), .directory)
        XCTAssertTrue(set.directoryCovers("a.wild.test"))
    }

    func testASelfSignedOrExpiredFileDoesNotWin() throws {
        try pki.selfSigned(["go.example.test"]).write(
            toFile: dir + "/go.example.test.pem", atomically: true, encoding: .utf8)
        let set = CertificateSet.load(directory: dir, supplied: [try supplied("go.example.test")])
        XCTAssertFalse(set.directoryCovers("go.example.test"))
        XCTAssertEqual(set.origin(of: "go.example.test"), .supplied)
    }

    func testTheSameVersionReusesItsContextAndABrokenNewOneKeepsTheLastGood() throws {
        let first = CertificateSet.load(directory: dir, supplied: [try supplied("go.example.test")])
        let context = try XCTUnwrap(first.context(for: "go.example.test"))
        var same = try supplied("go.example.test")
        same.pem = Array("not even PEM".utf8)  // same version: not parsed again
        let second = CertificateSet.load(directory: dir, previous: first, supplied: [same])
        XCTAssertTrue(second.context(for: "go.example.test") === context)
        let broken = SuppliedCertificate(hostname: "go.example.test", pem: Array("broken".utf8), version: "2")
        let third = CertificateSet.load(directory: dir, previous: second, supplied: [broken])
        XCTAssertTrue(third.context(for: "go.example.test") === context)
        XCTAssertEqual(third.issues.map(\.servingLastGood), [true])
        XCTAssertFalse(third.issues[0].description.contains("broken"), "never the PEM in a message")
    }

    /// A real handshake through the server, with the `openssl` command line as the client.
    func testTheACMETLSCertificateIsPresentedOnlyToClientsThatOfferACMETLS1() throws {
        let alpn = ALPNCertificates()
        let server = try startedServer(loops: 1, https: true) { $0.alpnCertificates = alpn }
        defer {
            server.shutdown()
            server.wait()
        }
        server.supply([try supplied("go.example.test")])
        let port = try XCTUnwrap(server.boundAddresses.first { $0.0 == .https }?.1.port)
        func handshake(_ name: String, alpn protocols: String?) throws -> String {
            var args = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", name]
            if let protocols { args += ["-alpn", protocols] }
            return try pki.run(args, input: "")
        }

        try alpn.set(
            hostname: "go.example.test", pem: Array(try pki.selfSigned(["go.example.test"], subject: "challenge").utf8))
        XCTAssertEqual(alpn.hostnames, ["go.example.test"])
        let challenged = try handshake("go.example.test", alpn: "acme-tls/1")
        XCTAssertTrue(challenged.contains("ALPN protocol: acme-tls/1"), challenged)
        XCTAssertTrue(challenged.contains("CN = challenge") || challenged.contains("CN=challenge"), challenged)

        for (name, protocols) in [("go.example.test", "http/1.1"), ("go.example.test", nil)] {
            let plain = try handshake(name, alpn: protocols)
            XCTAssertTrue(plain.contains("Test PKI CA"), "the ordered certificate, not the challenge: \(plain)")
            XCTAssertFalse(plain.contains("acme-tls/1"))
        }
        // Another name offering acme-tls/1 has no challenge: its usual certificate.
        let other = try handshake("fallback.test", alpn: "acme-tls/1")
        XCTAssertTrue(other.contains("fallback.test"), other)
        XCTAssertFalse(other.contains("ALPN protocol: acme-tls/1"), other)

        alpn.remove(hostname: "go.example.test")
        let after = try handshake("go.example.test", alpn: "acme-tls/1")
        XCTAssertFalse(after.contains("CN = challenge"), after)
    }

    /// Reloads racing from several threads (the watcher, SIGHUP, ACME's supply): every
    /// loop ends with the set the server says it serves, never an older one.
    func testRacingReloadsLeaveEveryLoopWithTheLastSet() throws {
        let server = try startedServer(loops: 2, https: false)
        defer {
            server.shutdown()
            server.wait()
        }
        let sets = try (0..<4).map { i in [try supplied("race\(i).example.test", version: "\(i)")] }
        for round in 0..<20 {
            DispatchQueue.concurrentPerform(iterations: 8) { i in
                server.supply(sets[(i + round) % sets.count])
            }
            let expected = server.certificates.hostnames
            for loop in 0..<server.loopCount {
                let seen = Mutex<[String]?>(nil)
                let done = DispatchSemaphore(value: 0)
                server.post(toLoop: loop) { (eventLoop: EventLoop) in
                    seen.withLock { $0 = eventLoop.certificates.hostnames }
                    done.signal()
                }
                done.wait()
                XCTAssertEqual(seen.withLock { $0 }, expected, "round \(round), loop \(loop)")
            }
        }
    }

    /// A server on the test's certificate directory answering 200 to everything, on
    /// loopback: HTTPS only or plain HTTP only.
    private func startedServer(
        loops: Int, https: Bool, configure: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.loops = loops
        configuration.httpAddress = https ? nil : .init(host: "127.0.0.1", port: 0)
        configuration.httpsAddress = https ? .init(host: "127.0.0.1", port: 0) : nil
        configuration.certificateDirectory = dir
        configuration.accessLog = false
        configure(&configuration)
        let server = HTTPServer(configuration: configuration)
        try server.start(handler: OK())
        return server
    }
}

private final class OK: HTTPHandler {
    func handle(_ request: HTTPRequest, _ context: inout RequestContext) -> HTTPHandlerResult {
        .response(.text(200, "ok\n"))
    }
}
