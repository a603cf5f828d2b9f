import XCTest

@testable import Store

/// `PGConnectionSettings.masked`: the operator's connection text with `***` for the
/// password, in the form they wrote it.
final class PGConnectionSettingsMaskedTests: XCTestCase {
    func testAURLKeepsItsFormWithThePasswordMasked() {
        XCTAssertEqual(
            PGConnectionSettings.masked("postgresql://edge:pa%40ss@db.internal:5432/biqli?sslmode=require"),
            "postgresql://edge:***@db.internal:5432/biqli?sslmode=require")
        XCTAssertEqual(
            PGConnectionSettings.masked("postgres://edge:x@h1:5432,h2:5433/biqli?password=y&sslpassword=z&a=b"),
            "postgres://edge:***@h1:5432,h2:5433/biqli?password=***&sslpassword=***&a=b")
        XCTAssertEqual(PGConnectionSettings.masked("postgresql://edge@db/biqli"), "postgresql://edge@db/biqli")
        XCTAssertEqual(PGConnectionSettings.masked("postgresql://db"), "postgresql://db")
        XCTAssertEqual(PGConnectionSettings.masked("postgresql://:secret@[::1]/biqli"), "postgresql://:***@[::1]/biqli")
    }

    func testKeywordsAreWrittenBackWithThePasswordMasked() {
        XCTAssertEqual(
            PGConnectionSettings.masked("host=db dbname=biqli password='it\\'s secret' user=edge"),
            "user=edge password=*** dbname=biqli host=db", "in libpq's order of options")
        XCTAssertEqual(PGConnectionSettings.masked("host=db dbname='my db'"), "dbname='my db' host=db")
        XCTAssertEqual(PGConnectionSettings.masked("host=db nonsense=1 password=x"), "***", "unreadable: nothing shown")
    }
}
