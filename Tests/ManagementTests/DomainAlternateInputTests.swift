import Core
import Model
import XCTest

@testable import Management

/// A domain's `alternateHostname` as requests state it (decision 0033 §4): a DNS name as a
/// domain's hostname, not the hostname itself, null for none; answered with the domain.
final class DomainAlternateInputTests: XCTestCase {
    private func decode(_ json: String) throws -> Domain {
        try DomainInput.decode(try JSONParser.parse(Array(json.utf8)), existing: nil, now: 1)
    }

    private func field(_ json: String) -> String? {
        do {
            _ = try decode(json)
            return nil
        } catch ManagementError.invalid(let problems) {
            return problems.map(\.field).joined(separator: " ")
        } catch {
            return "unexpected: \(error)"
        }
    }

    func testAnAlternateIsStoredAndAnswered() throws {
        let d = try decode(#"{"hostname": "go.example.com", "alternateHostname": "open.example.com"}"#)
        XCTAssertEqual(d.alternateHostname, "open.example.com")
        XCTAssertEqual(DomainInput.writable(d)["alternateHostname"], .string("open.example.com"))
        XCTAssertNil(try decode(#"{"hostname": "go.example.com", "alternateHostname": null}"#).alternateHostname)
        XCTAssertEqual(DomainInput.writable(try decode(#"{"hostname": "go.example.com"}"#))["alternateHostname"], .null)
    }

    func testABadAlternateNamesTheField() {
        for bad in [
            "\"go.example.com\"", "\"Open.Example.com\"", "\"localhost\"", "\"192.0.2.1\"", "\"a b.example.com\"",
            "\"\"", "3", "\"*.example.com\"",
        ] {
            XCTAssertEqual(
                field(#"{"hostname": "go.example.com", "alternateHostname": \#(bad)}"#), "alternateHostname", bad)
        }
    }
}
