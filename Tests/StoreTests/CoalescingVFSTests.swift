import CSQLite
import Core
import Model
import XCTest

@testable import Store

/// The writer's WAL writes go through `CoalescingVFS`; what they write is what
/// other connections (default VFS) read, also for transactions that spill
/// pages mid-way and rewrite frames.
final class CoalescingVFSTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.writerCacheKiB = 256  // small: a large transaction spills pages to the WAL before COMMIT
        return options
    }

    func testTheWriterConnectionUsesTheCoalescingVFS() throws {
        let name = try write { tx -> String in
            let db = (tx as! SQLiteTransaction).db
            var vfs: UnsafeMutablePointer<sqlite3_vfs>?
            sqlite3_file_control(db.handle, "main", SQLITE_FCNTL_VFS_POINTER, &vfs)
            return vfs.map { String(cString: $0.pointee.zName) } ?? ""
        }
        XCTAssertEqual(name, CoalescingVFS.name)
    }

    func testALargeSpillingTransactionIsReadBackIntactByAnotherConnection() throws {
        let clicks = (0..<20_000).map { i in
            Fixture.click(id: "biq_clk_" + ULID.make(milliseconds: UInt64(i), random: (7, UInt64(i))), at: Int64(i))
        }
        try write { tx in
            for click in clicks { try tx.insertClick(click) }
            // Rewrite early rows after their pages may have spilled: frames written again in the same transaction.
            for click in clicks.prefix(2_000) { _ = try tx.consumeClick(id: click.id, openId: "biq_open_x") }
        }
        XCTAssertEqual(try count("clicks"), 20_000)
        let outside = try outsideConnection()
        XCTAssertEqual(try outside.integer("SELECT count(*) FROM clicks WHERE consumed_by_open IS NOT NULL"), 2_000)
        XCTAssertEqual(try outside.queryAll("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        for click in [clicks[0], clicks[9_999], clicks[19_999]] {
            XCTAssertEqual(try reader.click(id: click.id), click)
        }
    }
}
