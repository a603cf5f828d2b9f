import Core
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class MonitorTests: XCTestCase {
    /// The state read after each wait is what the other thread wrote meanwhile (`Held`
    /// reads through its pointer): the waiter sees every step, and acknowledges each.
    func testAWaiterSeesEachValueAnotherThreadWroteWhileItSlept() {
        let monitor = Monitor(0)
        let seen = Mutex<[Int]>([])
        let deadline = Clock.monotonicNanoseconds() + 10_000_000_000
        let waiter = OSThread(name: "monitor-test") {
            monitor.withCondition { held in
                for _ in 1...3 {
                    while held.state <= 0 {
                        if !held.wait(untilMonotonic: deadline) { return }
                    }
                    let step = held.state
                    seen.withLock { $0.append(step) }
                    held.state = -step  // acknowledged
                    held.broadcast()
                }
            }
        }
        for step in 1...3 {
            monitor.withCondition { held in
                held.state = step
                held.broadcast()
                while held.state != -step {
                    if !held.wait(untilMonotonic: deadline) { return }
                }
            }
        }
        waiter.join()
        XCTAssertEqual(seen.withLock { $0 }, [1, 2, 3])
        XCTAssertEqual(monitor.withLock { $0 }, -3)
    }

    func testATimedWaitWithoutASignalEndsAtItsDeadlineAndLeavesTheStateAlone() {
        let monitor = Monitor("idle")
        let start = Clock.monotonicNanoseconds()
        let (signalled, state) = monitor.withCondition { held in
            (held.wait(untilMonotonic: start + 50_000_000), held.state)
        }
        XCTAssertFalse(signalled)
        XCTAssertEqual(state, "idle")
        XCTAssertGreaterThanOrEqual(Clock.monotonicNanoseconds() - start, 50_000_000)
    }

    func testWithLockChangesTheStateForTheNextHolder() {
        let monitor = Monitor([Int]())
        let threads = (0..<4).map { t in
            OSThread(name: "monitor-lock-\(t)") {
                for i in 0..<1_000 { monitor.withLock { $0.append(t * 1_000 + i) } }
            }
        }
        for t in threads { t.join() }
        XCTAssertEqual(monitor.withLock { $0.sorted() }, Array(0..<4_000))
    }
}
