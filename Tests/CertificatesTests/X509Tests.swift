import Core
import Foundation
import XCTest

@testable import Certificates

/// The X.509 objects: the CSR sent at finalization, the TLS-ALPN-01 challenge certificate,
/// and what is read back from an issued certificate (validity, issuer, names, CertID).
final class X509Tests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws { dir = try OpenSSLTool.scratch() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testTheCSRNamesTheHostnameAndIsSignedByItsOwnP256Key() throws {
        let key = try ECKey.generate()
        let der = try CertificateRequest.der(key: key, hostnames: ["go.example.test"])
        let seen = try XCTUnwrap(CertificateRequest.inspect(der))
        XCTAssertEqual(seen.hostnames, ["go.example.test"])
        XCTAssertTrue(seen.signedByP256Key)

        try Data(der).write(to: URL(fileURLWithPath: dir + "/csr.der"))
        let text = try OpenSSLTool.run(
            ["req", "-inform", "DER", "-in", "csr.der", "-noout", "-verify", "-text"], in: dir)
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(
            text.output.contains("verify OK") || text.output.contains("Certificate request self-signature verify OK"),
            text.output)
        XCTAssertTrue(text.output.contains("DNS:go.example.test"), text.output)
        XCTAssertTrue(
            text.output.contains("CN = go.example.test") || text.output.contains("CN=go.example.test"), text.output)
        XCTAssertTrue(text.output.contains("prime256v1") || text.output.contains("P-256"), text.output)
        // The public key in the CSR is the certificate key's, not the account's.
        let pub = try OpenSSLTool.run(["req", "-inform", "DER", "-in", "csr.der", "-noout", "-pubkey"], in: dir)
        let (x, y) = key.coordinates
        XCTAssertEqual(
            pub.output.filter { !$0.isNewline }, OpenSSLTool.publicKeyPEM(x: x, y: y).filter { !$0.isNewline })
    }

    func testTheTLSALPN01CertificateCarriesTheCriticalAcmeIdentifierOfTheKeyAuthorization() throws {
        let keyAuthorization = "token123.thumbprint456"
        let pem = try ChallengeCertificate.pem(hostname: "go.example.test", keyAuthorization: keyAuthorization)
        XCTAssertEqual(ChallengeCertificate.identifierDigest(pem: pem), SHA256.hash(keyAuthorization))
        let info = try XCTUnwrap(CertificateInfo(pem: String(decoding: pem, as: UTF8.self)))
        XCTAssertEqual(info.hostnames, ["go.example.test"], "the hostname is the only SAN")
        XCTAssertTrue(info.selfIssued)

        try Data(pem).write(to: URL(fileURLWithPath: dir + "/challenge.pem"))
        let text = try OpenSSLTool.run(
            ["x509", "-in", "challenge.pem", "-noout", "-text", "-certopt", "ext_dump"], in: dir)
        XCTAssertEqual(text.status, 0, text.output)
        // RFC 8737, section 3: id-pe-acmeIdentifier, critical, an OCTET STRING of 32 bytes.
        let lines = text.output.split(separator: "\n")
        let at = try XCTUnwrap(lines.firstIndex { $0.contains("1.3.6.1.5.5.7.1.31: critical") }, text.output)
        // The hex dump's lines: `0000 - 04 20 ba 78 ...-...   ascii`.
        var dumped = ""
        for line in lines[(at + 1)...] {
            guard let dash = line.range(of: " - ") else { break }
            let bytes = line[dash.upperBound...].components(separatedBy: "   ")[0]
            dumped += bytes.filter { $0.isHexDigit }
        }
        XCTAssertEqual(
            dumped, "0420" + SHA256.hex(SHA256.hash(keyAuthorization)), "OCTET STRING(SHA-256(key authorization))")
        XCTAssertTrue(text.output.contains("DNS:go.example.test"))
        XCTAssertTrue(String(decoding: pem, as: UTF8.self).contains("-----BEGIN PRIVATE KEY-----"))
    }

    func testAnIssuedCertificateIsReadBackWithItsValidityIssuerNamesAndCertID() throws {
        // A CA and a leaf signed by it, with the serial of RFC 9773's example.
        XCTAssertEqual(
            try OpenSSLTool.run(
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    "ca.key", "-out", "ca.pem", "-days", "3", "-subj", "/CN=Test Issuing CA/O=Test",
                ], in: dir
            ).status, 0)
        let leafKey = try ECKey.generate()
        try leafKey.pem.write(toFile: dir + "/leaf.key", atomically: true, encoding: .utf8)
        XCTAssertEqual(
            try OpenSSLTool.run(
                ["req", "-new", "-key", "leaf.key", "-subj", "/CN=go.example.test", "-out", "leaf.csr"], in: dir
            ).status, 0)
        try "subjectAltName=DNS:go.example.test,DNS:www.example.test\nauthorityKeyIdentifier=keyid\n".write(
            toFile: dir + "/ext.cnf", atomically: true, encoding: .utf8)
        let signed = try OpenSSLTool.run(
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "0x0087654321",
                "-days", "2", "-extfile", "ext.cnf", "-out", "leaf.pem",
            ], in: dir)
        XCTAssertEqual(signed.status, 0, signed.output)
        let chain =
            try String(contentsOfFile: dir + "/leaf.pem", encoding: .utf8)
            + String(contentsOfFile: dir + "/ca.pem", encoding: .utf8)
        let info = try XCTUnwrap(CertificateInfo(pem: chain))
        XCTAssertEqual(info.hostnames, ["go.example.test", "www.example.test"])
        XCTAssertEqual(info.issuer, "O=Test,CN=Test Issuing CA")
        XCTAssertFalse(info.selfIssued)
        XCTAssertEqual(info.notAfter - info.notBefore, 2 * 86_400_000)
        XCTAssertEqual(info.serial, [0x00, 0x87, 0x65, 0x43, 0x21], "DER content octets, the leading zero kept")
        XCTAssertEqual(info.authorityKeyIdentifier.count, 20)
        XCTAssertTrue(CertificateInfo.matches(pem: chain, key: leafKey))
        XCTAssertFalse(CertificateInfo.matches(pem: chain, key: try ECKey.generate()))
        XCTAssertEqual(
            info.renewalInfoID,
            Base64URL.encode(info.authorityKeyIdentifier) + "." + Base64URL.encode([0x00, 0x87, 0x65, 0x43, 0x21]))
    }

    func testTheCertIDOfRFC9773sExample() {
        // RFC 9773, section 4.1: keyIdentifier 69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4,
        // serial 00:87:65:43:21.
        let aki: [UInt8] = [
            0x69, 0x88, 0x5B, 0x6B, 0x87, 0x46, 0x40, 0x41, 0xE1, 0xB3, 0x7B, 0x84, 0x7B, 0xA0, 0xAE, 0x2C, 0xDE,
            0x01, 0xC8, 0xD4,
        ]
        XCTAssertEqual(
            CertificateInfo.renewalInfoID(authorityKeyIdentifier: aki, serial: [0x00, 0x87, 0x65, 0x43, 0x21]),
            "aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE")
    }
}
