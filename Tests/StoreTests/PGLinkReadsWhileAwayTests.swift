import Core
import Model
import XCTest

@testable import Store

/// Decision 0011 on PostgreSQL: while the server cannot be read, a loop that never read a
/// link still answers it when another loop did (the kernel spreads connections over the
/// loops, so a loop's own cache alone left some visitors of a known link an error page).
final class PGLinkReadsWhileAwayTests: XCTestCase {
    private var database: PGTestDatabase!
    private var store: PGStore!

    override func setUpWithError() throws {
        database = try PGTestDatabase(now: Int64(Clock.nowMilliseconds()))
        store = try PGStore.open(settings: try PGConnectionSettings(database.url), readers: 2)
        _ = try store.writeAndWait { tx in
            try tx.putDomain(Fixture.domain())
            try tx.putApp(Fixture.app())
            try tx.putLink(Fixture.link())
            try tx.putLink(Fixture.link(id: "biq_lnk_01ARZ3NDEKTSV4RRFFQ69G5FAY", key: "promo"))
        }
    }

    override func tearDown() {
        database?.drop()
        store?.close()
        store = nil
        database = nil
    }

    /// The server goes away for good: every connection to the database is closed and no
    /// new one can be made.
    private func serverAway() {
        database.drop()
    }

    func testALinkOneLoopReadAnswersOnTheOtherLoopWhileTheServerIsAway() throws {
        let first = store.reader(loop: 0)
        let second = store.reader(loop: 1)
        XCTAssertEqual(try first.link(host: Fixture.host, key: "invite"), Fixture.link())
        serverAway()
        XCTAssertEqual(try second.link(host: Fixture.host, key: "invite"), Fixture.link())
        XCTAssertEqual(try first.link(host: Fixture.host, key: "invite"), Fixture.link())
        // A link no loop read cannot be known: the read fails (the visit says "again shortly").
        XCTAssertThrowsError(try second.link(host: Fixture.host, key: "promo")) { error in
            guard case .unavailable = error as? StoreError else { return XCTFail("\(error)") }
        }
    }

    func testALinkChangedSinceItWasReadIsNotAnsweredFromTheOldCopy() throws {
        XCTAssertEqual(try store.reader(loop: 0).link(host: Fixture.host, key: "invite"), Fixture.link())
        var changed = Fixture.link()
        changed.url = "https://example.com/changed"
        _ = try store.writeAndWait { [changed] tx in try tx.putLink(changed) }
        serverAway()
        XCTAssertThrowsError(try store.reader(loop: 1).link(host: Fixture.host, key: "invite"))
    }
}
