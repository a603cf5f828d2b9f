import CSystem
import Foundation
import XCTest

@testable import HTTP

/// Loading the certificate directory: a file that breaks keeps its last good certificate.
final class CertificateSetTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "certificate-set-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertEqual(csys_write_self_signed_pem(dir + "/default.pem", "fallback.test", 1), 1)
        XCTAssertEqual(csys_write_self_signed_pem(dir + "/go.example.test.pem", "go.example.test", 1), 1)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func testABrokenFileKeepsServingItsLastGoodCertificate() throws {
        let first = CertificateSet.load(directory: dir)
        XCTAssertTrue(first.covers("go.example.test"))
        XCTAssertEqual(first.issues, [])
        let good = try XCTUnwrap(first.context(for: "go.example.test"))

        try "-----BEGIN CERTIFICATE-----\nbroken\n".write(
            toFile: dir + "/go.example.test.pem", atomically: true, encoding: .utf8)
        let second = CertificateSet.load(directory: dir, previous: first)
        XCTAssertTrue(second.context(for: "go.example.test") === good, "not the default")
        XCTAssertEqual(second.failedFiles, [dir + "/go.example.test.pem"])
        XCTAssertEqual(second.issues.map(\.servingLastGood), [true])
        XCTAssertTrue(second.problems[0].hasSuffix("(serving its last good certificate)"))

        // Still broken at the next reload: the same certificate, carried on.
        let third = CertificateSet.load(directory: dir, previous: second)
        XCTAssertTrue(third.context(for: "go.example.test") === good)

        // Without a previous load there is nothing to keep: the name falls to the default.
        let fresh = CertificateSet.load(directory: dir)
        XCTAssertFalse(fresh.covers("go.example.test"))
        XCTAssertEqual(fresh.issues.map(\.servingLastGood), [false])
        XCTAssertTrue(fresh.issues[0].unusable)
    }

    func testARemovedFileIsNotKept() throws {
        let first = CertificateSet.load(directory: dir)
        try FileManager.default.removeItem(atPath: dir + "/go.example.test.pem")
        let second = CertificateSet.load(directory: dir, previous: first)
        XCTAssertFalse(second.covers("go.example.test"))
        XCTAssertEqual(second.issues, [])
    }
}
