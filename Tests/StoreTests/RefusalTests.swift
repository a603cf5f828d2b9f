import Core
import Model
import XCTest

@testable import Store

/// `write(refusing:)`: a body's own error reaches its own completion as a typed
/// `.refused`, its work is rolled back, and the other writes of its batch commit.
final class RefusalTests: StoreTestCase {
    func testARefusalReachesOnlyItsOwnCompletionWhileItsBatchMatesCommit() throws {
        try checkRefusalInABatch()
    }

    func testAnotherErrorOfTheBodyIsAStoreFailure() throws {
        struct Foreign: Error {}
        let outcome = Box<Result<Int, WriteError<Refusal>>>()
        let done = Latch()
        store.write(refusing: Refusal.self, { _ -> Int in throw Foreign() }) { r in
            outcome.append(r)
            done.countDown()
        }
        XCTAssertTrue(done.wait(for: 1))
        guard case .failure(.store(.backend(-1, let message)))? = outcome.values.first else {
            return XCTFail("expected .store(.backend(-1, ...)), got \(outcome.values)")
        }
        XCTAssertTrue(message.contains("Foreign"))
    }

    func testWriteAndWaitThrowsTheTypedRefusalAndKeepsNothing() throws {
        do throws(WriteError<Refusal>) {
            _ = try store.writeAndWait(refusing: Refusal.self) { tx -> Int in
                try tx.putDomain(Fixture.domain())
                throw Refusal(reason: "dry run")
            }
            XCTFail("the refusal should be thrown")
        } catch {
            XCTAssertEqual(error, .refused(Refusal(reason: "dry run")))
        }
        XCTAssertNil(try reader.domain(Fixture.host))
        XCTAssertEqual(try store.writeAndWait(refusing: Refusal.self) { _ in 7 }, 7)
    }

    func testAClosedStoreAnswersAStoreFailure() throws {
        store.close()
        let late = Box<Result<Int, WriteError<Refusal>>>()
        store.write(refusing: Refusal.self, { _ in 1 }) { late.append($0) }
        XCTAssertEqual(late.values.count, 1)
        guard case .failure(.store(.closed)) = late.values[0] else { return XCTFail("expected .store(.closed)") }
        XCTAssertThrowsError(try store.writeAndWait(refusing: Refusal.self) { _ in 1 }) {
            XCTAssertEqual($0 as? WriteError<Refusal>, .store(.closed))
        }
    }
}

/// The same with one savepoint per body.
final class SavepointRefusalTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.optimisticBatches = false
        return options
    }

    func testARefusalReachesOnlyItsOwnCompletionWhileItsBatchMatesCommit() throws {
        try checkRefusalInABatch()
    }
}

/// What a test body refuses with.
struct Refusal: Error, Sendable, Equatable {
    var reason: String
}

extension StoreTestCase {
    /// One batch: a plain write `a`, then refusable writes `b` (refuses), `c` (returns)
    /// and `d` (throws a `StoreError`), each inserting its click first.
    func checkRefusalInABatch(file: StaticString = #filePath, line: UInt = #line) throws {
        let gate = holdWriter()
        let runs = Box<String>()
        let plain = Box<Result<Void, StoreError>>()
        let results = Box<(String, Result<Int, WriteError<Refusal>>)>()
        let done = Latch()
        let before = store.statistics.batches
        store.write({ tx in
            runs.append("a")
            try tx.insertClick(Fixture.click(id: "biq_clk_a", at: 1))
        }) { r in
            plain.append(r)
            done.countDown()
        }
        for name in ["b", "c", "d"] {
            store.write(
                refusing: Refusal.self,
                { tx -> Int in
                    runs.append(name)
                    try tx.insertClick(Fixture.click(id: "biq_clk_" + name, at: 1))
                    if name == "b" { throw Refusal(reason: "b refuses") }
                    if name == "d" { throw StoreError.conflict(.linkKey) }
                    return 1
                }
            ) { r in
                results.append((name, r))
                done.countDown()
            }
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 4), file: file, line: line)
        let byName = Dictionary(uniqueKeysWithValues: results.values.map { ($0.0, $0.1) })
        guard case .failure(.refused(let refusal))? = byName["b"] else {
            return XCTFail("b gets its own refusal: \(String(describing: byName["b"]))", file: file, line: line)
        }
        XCTAssertEqual(refusal, Refusal(reason: "b refuses"), file: file, line: line)
        XCTAssertEqual(try byName["c"]?.get(), 1, file: file, line: line)
        guard case .failure(.store(.conflict(.linkKey)))? = byName["d"] else {
            return XCTFail("d gets its store error: \(String(describing: byName["d"]))", file: file, line: line)
        }
        XCTAssertNoThrow(try plain.values.first?.get(), file: file, line: line)
        XCTAssertNotNil(try reader.click(id: "biq_clk_a"), file: file, line: line)
        XCTAssertNil(try reader.click(id: "biq_clk_b"), file: file, line: line)
        XCTAssertNotNil(try reader.click(id: "biq_clk_c"), file: file, line: line)
        XCTAssertNil(try reader.click(id: "biq_clk_d"), file: file, line: line)
        XCTAssertEqual(try countedClicks(), 2, "the refused body's click is not counted", file: file, line: line)
        XCTAssertEqual(store.statistics.batches - before, 1, "a-d shared one batch", file: file, line: line)
        XCTAssertEqual(
            runs.values.filter { $0 == "b" }.count, 1, "a refused body is not run again", file: file, line: line)
    }
}
