import Model
import XCTest

@testable import Store

/// What every backend must do with a domain's alternate hostname (decision 0033 §4): it is
/// stored, changed and removed with the domain; `domain(servedAt:)` finds the domain by its
/// hostname or its alternate, in a transaction and in a reader's snapshot, and `domain(_:)`
/// by its hostname only.
enum AlternateHostnameContract {
    static let suite: [ContractCase] = [
        ("a domain is served at its hostname and its alternate", servedAtBoth)
    ]

    static func servedAtBoth(_ b: any ContractBackend) throws {
        var domain = Fixture.domain()
        domain.alternateHostname = "open.example.com"
        try b.write { [domain] tx in try tx.putDomain(domain) }
        XCTAssertEqual(try b.committed.domain(Fixture.host), domain)
        XCTAssertEqual(try b.committed.domain(servedAt: Fixture.host), domain)
        XCTAssertEqual(try b.committed.domain(servedAt: "open.example.com"), domain)
        XCTAssertNil(try b.committed.domain("open.example.com"), "an alternate is no domain of its own")
        XCTAssertNil(try b.committed.domain(servedAt: "other.example.com"))
        XCTAssertEqual(try b.write { tx in try tx.domain(servedAt: "open.example.com") }, domain)
        var moved = domain
        moved.alternateHostname = "app.example.com"
        try b.write { [moved] tx in try tx.putDomain(moved) }
        XCTAssertNil(try b.committed.domain(servedAt: "open.example.com"))
        XCTAssertEqual(try b.committed.domain(servedAt: "app.example.com"), moved)
        // The store refuses a second domain with the same alternate (the API says so first).
        var second = Fixture.domain("second.example.com")
        second.alternateHostname = "app.example.com"
        XCTAssertNotNil(b.writeError { [second] tx in try tx.insertDomain(second) })
        moved.alternateHostname = nil
        try b.write { [moved] tx in try tx.putDomain(moved) }
        XCTAssertNil(try b.committed.domain(servedAt: "app.example.com"))
        XCTAssertEqual(try b.committed.domain(Fixture.host)?.alternateHostname, nil)
    }
}
