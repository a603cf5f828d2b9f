import Synchronization
import XCTest

@testable import Core
@testable import Edge

final class LogThrottleTests: XCTestCase {
    private final class Lines: Sendable {
        let lines = Mutex<[(String, [(String, JSONValue)])]>([])
        let clock = Atomic<UInt64>(1_000_000_000)
    }

    func testOneLinePerIntervalEachCountingThoseLeftOut() {
        let lines = Lines()
        let throttle = LogThrottle(
            "write failed", everyMilliseconds: 10_000,
            emit: { message, fields in lines.lines.withLock { $0.append((message, fields)) } },
            now: { lines.clock.load(ordering: .relaxed) })
        var built = 0
        func write() {
            throttle.write {
                built += 1
                return [("detail", "full")]
            }
        }
        write()  // the first is written
        for _ in 0..<5 { write() }  // within 10 s: left out
        lines.clock.add(9_999_000_000, ordering: .relaxed)
        write()  // still within 10 s of the first
        lines.clock.add(1_000_000, ordering: .relaxed)
        write()  // 10 s after the first: written, counting the six left out
        write()
        let got = lines.lines.withLock { $0 }
        XCTAssertEqual(got.count, 2)
        XCTAssertEqual(got.map(\.0), ["write failed", "write failed"])
        XCTAssertEqual(got[0].1.map(\.0), ["detail"])
        XCTAssertEqual(got[1].1.map(\.0), ["detail", "suppressed"])
        XCTAssertEqual(got[1].1.last?.1, .int(6))
        XCTAssertEqual(built, 2, "fields are built only for the lines written")
    }
}
