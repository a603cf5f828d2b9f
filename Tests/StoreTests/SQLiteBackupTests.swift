import Core
import Model
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

        // The store's writer commits a click in every pause of the copy, and waits for
        // it: a copy that held the writer up would make that wait fail (the busy
        // timeout) or never end. Counted, not timed: one commit per pause, all of them.
        var steps = 0
        var committed = 0
        var failures: [String] = []
        let store = self.store!
        // Bounded: a copy that started over at each commit would never finish; after
        // this many the commits stop and its copy would hold them (the count check fails).
        let mostCommits = 20_000
        let copy = try SQLiteBackup.copy(
            from: directory.databasePath, to: destination, pagesPerStep: 2, pauseMicroseconds: 0,
            busyTimeoutMilliseconds: 5_000
        ) {
            steps += 1
            guard committed < mostCommits else { return }
            let id = "during\(committed)"
            do {
                try store.writeAndWait { tx in try tx.insertClick(LockWaitTests.click(id)) }
                committed += 1
            } catch {
                failures.append("\(error)")
            }
        }

        XCTAssertEqual(failures, [], "a commit failed while the copy ran")
        XCTAssertGreaterThan(steps, 100, "the copy must span many commits to test anything")
        XCTAssertEqual(committed, steps, "one commit landed in every pause of the copy")
        XCTAssertLessThan(committed, mostCommits, "the copy finished while the writer kept committing")
        XCTAssertEqual(copy.schemaVersion, SQLiteStore.supportedSchemaVersion)
        // One snapshot: every click committed before the copy began, none of those
        // committed while it ran.
        XCTAssertEqual(try clickCount(destination), 20_000)
        XCTAssertEqual(try clickCount(directory.databasePath), 20_000 + Int64(committed))
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
