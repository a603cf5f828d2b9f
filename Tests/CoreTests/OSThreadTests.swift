import Core
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class OSThreadTests: XCTestCase {
    func testTheBodyRunsOnItsOwnThreadAndJoinWaitsForIt() {
        let ran = Atomic<Int>(0)
        let onIt = Atomic<Bool>(false)
        let holder = Mutex<OSThread?>(nil)
        let thread = OSThread(name: "os-thread-test") {
            usleep(50_000)
            // Started before the handle was stored: wait for it, then ask.
            while holder.withLock({ $0 }) == nil { usleep(1_000) }
            onIt.store(holder.withLock { $0!.isCurrent }, ordering: .relaxed)
            ran.add(1, ordering: .relaxed)
        }
        holder.withLock { $0 = thread }
        XCTAssertFalse(thread.isCurrent)
        thread.join()
        XCTAssertEqual(ran.load(ordering: .relaxed), 1, "join returned after the body")
        XCTAssertTrue(onIt.load(ordering: .relaxed))
        thread.join()  // a second join does nothing
    }

    /// `start(name:taking:)` hands the new thread state that is not `Sendable` (the compiler
    /// allows it because nothing else holds it); what the thread did comes back through a
    /// `Sendable` channel.
    func testAThreadTakesStateThatNoOneElseHolds() {
        final class Tally {
            var count = 0
        }
        let result = Mutex<Int>(0)
        let tally = Tally()
        let thread = OSThread.start(
            name: "os-thread-take",
            taking: {
                for _ in 0..<1_000 { tally.count += 1 }
                result.withLock { $0 = tally.count }
            })
        thread.join()
        XCTAssertEqual(result.withLock { $0 }, 1_000)
    }
}
