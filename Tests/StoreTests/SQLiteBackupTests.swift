import Core
import Model
import Synchronization
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// `biqli-edge backup`'s copy: one snapshot of a store that keeps committing, taken
/// without holding up its writer, refused over an existing file; and the check a copy
/// passes before a restore.
final class SQLiteBackupTests: StoreTestCase {
    private func insertClicks(_ count: Int, prefix: String) throws {
        var done = 0
        while done < count {
            let ids = (done..<min(done + 2_000, count)).map { "\(prefix)\($0)" }
            try write { tx in
                for id in ids { try tx.insertClick(LockWaitTests.click(id)) }
            }
            done += ids.count
        }
    }

    private func clickCount(_ path: String) throws -> Int64 {
        let db = try SQLiteConnection.open(
            path: path, create: false, busyTimeoutMilliseconds: 1_000, cacheKiB: 64, queryOnly: true)
        defer { db.close() }
        return try db.integer("SELECT count(*) FROM clicks")
    }

    func testACopyTakenWhileTheWriterCommitsIsOneSnapshotAndNeverHoldsTheWriterUp() throws {
        try insertClicks(20_000, prefix: "before")
        let destination = directory.path + "/copy.sqlite3"
        defer { unlink(destination) }

        // The writer commits one click after another for as long as the copy lasts.
        let stop = Atomic<Bool>(false)
        let slowest = Atomic<UInt64>(0)
        let committed = Atomic<Int>(0)
        let store = self.store!
        // Bounded: a copy that followed the writer would start over at each commit and end
        // only once the writes stop, holding them all (the count check below then fails).
        let writesEnd = Clock.monotonicNanoseconds() + 20_000_000_000
        let writer = OSThread(name: "test-writes") {
            var i = 0
            while !stop.load(ordering: .acquiring) && Clock.monotonicNanoseconds() < writesEnd {
                let start = Clock.monotonicNanoseconds()
                let id = "during\(i)"
                do {
                    try store.writeAndWait { tx in try tx.insertClick(LockWaitTests.click(id)) }
                } catch {
                    XCTFail("a write failed during the copy: \(error)")
                    return
                }
                let took = Clock.monotonicNanoseconds() - start
                if took > slowest.load(ordering: .relaxed) { slowest.store(took, ordering: .relaxed) }
                committed.add(1, ordering: .relaxed)
                i += 1
            }
        }
        // One page a step and 4 ms between steps: the copy lasts seconds, and every commit
        // of the writer lands between two of its steps.
        let start = Clock.monotonicNanoseconds()
        let copy = try SQLiteBackup.copy(
            from: directory.databasePath, to: destination, pagesPerStep: 1, pauseMicroseconds: 4_000)
        let copyMilliseconds = (Clock.monotonicNanoseconds() - start) / 1_000_000
        let duringCopy = committed.load(ordering: .relaxed)
        stop.store(true, ordering: .releasing)
        writer.join()

        XCTAssertGreaterThan(copyMilliseconds, 1_000, "the copy must outlast many commits to test anything")
        XCTAssertGreaterThan(duringCopy, 50, "the writer kept committing while the copy ran")
        let slowestMilliseconds = slowest.load(ordering: .relaxed) / 1_000_000
        // A write held by the copy waits for the rest of it; a busy machine's scheduler can
        // stall one for most of a second (750 ms of 2,925 seen with three builds running).
        XCTAssertLessThan(
            slowestMilliseconds, copyMilliseconds / 2,
            "no write waited for the copy (slowest \(slowestMilliseconds) ms, copy \(copyMilliseconds) ms)")
        XCTAssertEqual(copy.schemaVersion, SQLiteStore.supportedSchemaVersion)
        // One snapshot: every click committed before the copy began, and not all of those
        // committed while it ran (a copy that followed the writer would never finish).
        let copied = try clickCount(destination)
        XCTAssertGreaterThanOrEqual(copied, 20_000)
        XCTAssertLessThan(copied, try clickCount(directory.databasePath))
        XCTAssertEqual(
            try SQLiteBackup.check(path: destination), .init(schemaVersion: copy.schemaVersion, problems: []))
        var info = stat()
        XCTAssertEqual(stat(destination, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600, "the copy holds the signing keys: the owner's alone")
        XCTAssertEqual(Int64(info.st_size), copy.bytes)
        XCTAssertFalse(fileExists(destination + "-wal"), "the copy is one file, not in WAL mode")
    }

    func testAnExistingFileIsNeverOverwritten() throws {
        let destination = directory.path + "/taken"
        defer { unlink(destination) }
        let fd = open(destination, O_WRONLY | O_CREAT, 0o600)
        XCTAssertEqual(Glibc.write(fd, "keep", 4), 4)
        close(fd)
        XCTAssertThrowsError(try SQLiteBackup.copy(from: directory.databasePath, to: destination))
        XCTAssertEqual(String(decoding: try XCTUnwrap(readBytes(destination)), as: UTF8.self), "keep")
    }

    func testACopyWithADamagedPageFailsTheCheck() throws {
        try insertClicks(5_000, prefix: "c")
        let destination = directory.path + "/copy.sqlite3"
        defer { unlink(destination) }
        let copy = try SQLiteBackup.copy(from: directory.databasePath, to: destination)
        XCTAssertEqual(try SQLiteBackup.check(path: destination).problems, [])
        // Garbage over a page in the middle of the file (not the header).
        let fd = open(destination, O_WRONLY)
        let garbage = [UInt8](repeating: 0xA5, count: 4_096)
        XCTAssertEqual(garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(copy.bytes / 2)) }, 4_096)
        close(fd)
        let damaged: [String]
        do {
            damaged = try SQLiteBackup.check(path: destination).problems
        } catch {
            damaged = ["\(error)"]  // refused outright: also a failed check
        }
        XCTAssertFalse(damaged.isEmpty)
    }

    private func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private func readBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: 64)
        let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n >= 0 ? Array(out.prefix(n)) : nil
    }
}
