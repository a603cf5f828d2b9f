import Foundation
import XCTest

@testable import HTTP

final class CertificateWatcherTests: XCTestCase {
    /// The watcher's thread closes its stop eventfd as it ends; a second `stop` (a second
    /// shutdown signal) must not write 8 bytes to whatever now has that number. Linux
    /// hands out the lowest free descriptors, so a pipe made right after gets them.
    func testASecondStopWritesNothingToADescriptorThatReusedTheNumber() throws {
        let dir = NSTemporaryDirectory() + "certwatch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let watcher = try XCTUnwrap(CertificateWatcher.start(directory: dir) {})
        watcher.stop()
        watcher.join()

        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        watcher.stop()
        XCTAssertEqual(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0)
        var byte: UInt8 = 0
        XCTAssertEqual(read(fds[0], &byte, 1), -1, "nothing was written to the pipe")
        XCTAssertEqual(errno, EAGAIN)
    }
}
