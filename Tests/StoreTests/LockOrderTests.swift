import XCTest

@testable import Store

/// The order a PostgreSQL writer runs a batch in (`PGWriterLoop.inLockOrder`): jobs
/// without a lock order first as they came, then the others by key, ties as they came.
final class LockOrderTests: XCTestCase {
    private func job(_ name: String, _ key: String?) -> WriteJob {
        let job = VoidWriteJob(body: { _ in }, completion: { _ in })
        job.lockOrder = key
        names[ObjectIdentifier(job)] = name
        return job
    }

    private var names: [ObjectIdentifier: String] = [:]

    private func order(_ jobs: [WriteJob]) -> [String] {
        PGWriterLoop.inLockOrder(jobs).map { names[ObjectIdentifier($0)]! }
    }

    func testKeyedJobsComeAfterTheOthersInKeyOrder() {
        let jobs = [
            job("a", "cus_2"), job("open1", nil), job("b", "cus_1"), job("c", "cus_2"), job("open2", nil),
            job("d", "Cus_9"), job("e", "cus_10"),
        ]
        // Bytes, not locale: "C" < "c", "cus_10" < "cus_2".
        XCTAssertEqual(order(jobs), ["open1", "open2", "d", "b", "e", "a", "c"])
    }

    func testABatchWithoutKeysIsLeftAsItCame() {
        let jobs = [job("x", nil), job("y", nil), job("z", nil)]
        XCTAssertEqual(order(jobs), ["x", "y", "z"])
    }

    func testTwoBatchesOfTheSameCustomersTakeThemInOneOrder() {
        let first = order([job("1", "cus_b"), job("2", "cus_a")])
        let second = order([job("3", "cus_a"), job("4", "cus_b")])
        XCTAssertEqual(first, ["2", "1"])
        XCTAssertEqual(second, ["3", "4"])
    }
}
