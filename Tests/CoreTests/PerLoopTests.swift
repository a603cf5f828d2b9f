import Core
import Foundation
import XCTest

final class PerLoopTests: XCTestCase {
    func testEachThreadMutatesItsOwnValue() {
        let loops = 8
        let perLoop = PerLoop(count: loops) { [Int]() }
        DispatchQueue.concurrentPerform(iterations: loops) { loop in
            for i in 0..<10_000 { perLoop.with(loop) { $0.append(loop * 100_000 + i) } }
        }
        for loop in 0..<loops {
            let values = perLoop.with(loop) { $0 }
            XCTAssertEqual(values, Array((0..<10_000).map { loop * 100_000 + $0 }), "loop \(loop)")
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
}
