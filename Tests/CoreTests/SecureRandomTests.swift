import Glibc
import Synchronization
import XCTest

@testable import Core

final class SecureRandomTests: XCTestCase {
    func testDrawsAcrossPoolRefillsAreDistinct() {
        // 26 bytes is a handoff token's draw: 2,000 of them cross the 512-byte pool's
        // refill about a hundred times.
        var seen = Set<[UInt8]>()
        for _ in 0..<2_000 { seen.insert(SecureRandom.bytes(26)) }
        XCTAssertEqual(seen.count, 2_000)
    }

    func testEveryByteValueOccursAndNoDrawIsZero() {
        var counts = [Int](repeating: 0, count: 256)
        for size in [1, 7, 18, 26, 128, 129, 4_096] {  // 129 and 4096 bypass the pool
            for _ in 0..<40 {
                let bytes = SecureRandom.bytes(size)
                XCTAssertEqual(bytes.count, size)
                if size >= 18 { XCTAssertNotEqual(bytes, [UInt8](repeating: 0, count: size)) }
                for b in bytes { counts[Int(b)] += 1 }
            }
        }
        // About 178,000 bytes: a value that never occurs would mean a broken source.
        XCTAssertEqual(counts.filter { $0 == 0 }.count, 0)
    }

    func testZeroBytesIsANoOp() {
        XCTAssertEqual(SecureRandom.bytes(0), [])
    }

    func testThreadsDrawFromTheirOwnPools() {
        let draws = Mutex<[[UInt8]]>([])
        let threads = (0..<8).map { i in
            OSThread(name: "random-\(i)") { draws.withLock { $0.append(SecureRandom.bytes(32)) } }
        }
        for t in threads { t.join() }
        XCTAssertEqual(Set(draws.withLock { $0 }).count, 8)
    }

    /// The child of a fork must not hand out what the parent's pool still holds: without
    /// the pool's fork handler both would draw the same next bytes.
    func testAForkedChildDoesNotRepeatTheParentsBytes() throws {
        _ = SecureRandom.bytes(16)  // the pool is full now
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let pid = fork()
        if pid == 0 {
            var child = [UInt8](repeating: 0, count: 16)
            child.withUnsafeMutableBytes { SecureRandom.fill($0) }
            _ = child.withUnsafeBytes { write(fds[1], $0.baseAddress, 16) }
            _exit(0)
        }
        XCTAssertGreaterThan(pid, 0)
        close(fds[1])
        let parent = SecureRandom.bytes(16)
        var child = [UInt8](repeating: 0, count: 16)
        let got = child.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, 16) }
        close(fds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        XCTAssertEqual(got, 16)
        XCTAssertNotEqual(parent, child)
    }
}
