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
}
