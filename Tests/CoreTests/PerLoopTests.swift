import Core
import Foundation
import Synchronization
import XCTest

final class PerLoopTests: XCTestCase {
    func testEachThreadMutatesItsOwnValue() {
        let loops = 8
        let perLoop = PerLoop(count: loops) { [Int]() }
        let seen = Mutex<[Int: [Int]]>([:])
        DispatchQueue.concurrentPerform(iterations: loops) { loop in
            for i in 0..<10_000 { perLoop.with(loop) { $0.append(loop * 100_000 + i) } }
            let values = perLoop.with(loop) { $0 }  // read on the thread that owns it
            seen.withLock { $0[loop] = values }
        }
        let all = seen.withLock { $0 }
        for loop in 0..<loops {
            XCTAssertEqual(all[loop], Array((0..<10_000).map { loop * 100_000 + $0 }), "loop \(loop)")
        }
    }

    func testAtLeastOneValueAndEachMadeOnce() {
        var made = 0
        let one = PerLoop(count: 0) { () -> Int in
            made += 1
            return made
        }
        XCTAssertEqual(one.with(0) { $0 }, 1)
        let three = PerLoop(count: 3) { () -> Int in
            made += 1
            return made
        }
        XCTAssertEqual((0..<3).map { i in three.with(i) { $0 } }, [2, 3, 4])
    }

    func testTheFirstThreadToTouchAValueOwnsItAndNoOtherThreadMay() {
        let perLoop = PerLoop(count: 2) { 0 }
        XCTAssertTrue(perLoop.isOwnedByCurrentThread(0), "untouched: the caller becomes the owner")
        XCTAssertTrue(perLoop.isOwnedByCurrentThread(0), "and stays it")
        let other = onAnotherThread {
            [perLoop.isOwnedByCurrentThread(0), perLoop.isOwnedByCurrentThread(1), perLoop.isOwnedByCurrentThread(1)]
        }
        XCTAssertEqual(other, [false, true, true], "another thread: not loop 0's value, but untouched loop 1's")
        XCTAssertFalse(perLoop.isOwnedByCurrentThread(1), "loop 1's belongs to that thread now")
        XCTAssertTrue(perLoop.isOwnedByCurrentThread(0))
    }

    func testALoopThreadMayTouchOnlyItsOwnLoopsValue() {
        let perLoop = PerLoop(count: 3) { 0 }
        let answers = onAnotherThread { () -> [Bool] in
            LoopThread.bind(1)
            defer { LoopThread.bind(nil) }
            return [
                LoopThread.current == 1, perLoop.isOwnedByCurrentThread(0), perLoop.isOwnedByCurrentThread(2),
                perLoop.isOwnedByCurrentThread(1),
            ]
        }
        XCTAssertEqual(answers, [true, false, false, true], "loop 1's thread: only loop 1's value, untouched or not")
        XCTAssertTrue(perLoop.isOwnedByCurrentThread(0), "the refusals claimed nothing")
        XCTAssertFalse(perLoop.isOwnedByCurrentThread(1))
        XCTAssertNil(LoopThread.current, "the test's own thread runs no loop")
    }

    func testValuesGivenWholeAreTakenByAnyThreadButAnotherLoops() {
        final class Reader {}
        let perLoop = PerLoop(values: [Reader(), Reader()])
        XCTAssertEqual(perLoop.count, 2)
        XCTAssertTrue(perLoop.value(0) === perLoop.value(0), "the object itself, each time")
        XCTAssertFalse(perLoop.value(0) === perLoop.value(1), "one per loop")
        XCTAssertTrue(perLoop.mayTakeOnCurrentThread(0) && perLoop.mayTakeOnCurrentThread(1), "no loop's thread")
        let onLoopOne = onAnotherThread { () -> [Bool] in
            LoopThread.bind(1)
            defer { LoopThread.bind(nil) }
            return [perLoop.mayTakeOnCurrentThread(0), perLoop.mayTakeOnCurrentThread(1)]
        }
        XCTAssertEqual(onLoopOne, [false, true], "loop 1's thread: its own value only")
    }

    /// Runs `body` on a new thread and returns its result.
    private func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let result = Mutex<T?>(nil)
        let thread = OSThread(name: "perloop-test") { result.withLock { $0 = body() } }
        thread.join()
        return result.withLock { $0! }
    }
}
