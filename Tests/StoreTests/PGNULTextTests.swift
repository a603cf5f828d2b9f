import Core
import Model
import XCTest

@testable import Store

/// A NUL byte in a text parameter never reaches PostgreSQL, which refuses it (22021): a
/// query matches nothing, as the same query does on SQLite where no stored text holds
/// one; a write is refused with `textWithNUL` and leaves the transaction usable (issue 23
/// item 3).
final class PGNULTextTests: PGTestCase {
    func testAQueryWithANULParameterMatchesNothingAsOnSQLite() throws {
        try applyToBoth { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app(domains: [Fixture.host]))
            try tx.putLink(Fixture.link())
        }
        for text in ["\0", "a\0b", Fixture.linkId + "\0"] {
            try assertSameAsSQLite("link id \(text.debugDescription)") { try $0.link(id: text) }
            try assertSameAsSQLite("domain \(text.debugDescription)") { try $0.domain(text) }
            try assertSameAsSQLite("app \(text.debugDescription)") { try $0.app(text) }
            try assertSameAsSQLite("key \(text.debugDescription)") { try $0.link(host: Fixture.host, key: text) }
            XCTAssertEqual(try reader.links(domain: text, after: nil, limit: 10), [])
        }
        // Inside the writer's transaction too: the read is answered, the batch goes on.
        try inTransaction { tx in
            XCTAssertNil(try tx.link(id: "\0"))
            try tx.putLink(Fixture.link(id: "biq_lnk_after", key: "after"))
        }
        XCTAssertNotNil(try reader.link(id: "biq_lnk_after"))
    }

    func testAWriteWithANULIsRefusedBeforeTheServerSeesIt() throws {
        try inTransaction { tx in try tx.putDomain(Fixture.domain()) }
        var link = Fixture.link(appId: nil)
        link.url = "https://example.com/\0"
        XCTAssertEqual(transactionError { tx in try tx.putLink(link) }, .textWithNUL)
        // The connection and its transactions are fine afterwards.
        try inTransaction { tx in try tx.putLink(Fixture.link(appId: nil)) }
        XCTAssertEqual(try reader.link(id: Fixture.linkId)?.url, Fixture.link(appId: nil).url)
    }

    func testOnlyStatementsThatBeginWithSelectAreQueries() {
        for sql in ["SELECT 1", "  select x FROM t", "\n\tSelect 1"] { XCTAssertTrue(PGConnection.isQuery(sql), sql) }
        for sql in ["INSERT INTO t VALUES ($1)", "UPDATE t SET a = $1", "WITH x AS (INSERT ...) SELECT", "SELEC", ""] {
            XCTAssertFalse(PGConnection.isQuery(sql), sql)
        }
    }
}
