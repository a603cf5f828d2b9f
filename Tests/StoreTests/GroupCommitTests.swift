import Core
import Model
import XCTest

@testable import Store

#if canImport(Glibc)
import Glibc
#endif

/// The writer: batches, per-job savepoints, commit before completion, failures.
final class GroupCommitTests: StoreTestCase {
    func testManyThreadsWritingConcurrentlyAllCompleteAndPersist() throws {
        let threads = 8
        let perThread = 500
        let done = Latch()
        let failures = Box<StoreError>()
        let store = self.store!
        DispatchQueueless.run(threads: threads) { t in
            for i in 0..<perThread {
                let click = Fixture.click(id: "c_\(t)_\(i)", at: Int64(i))
                store.write({ tx in try tx.insertClick(click) }) { result in
                    if case .failure(let e) = result { failures.append(e) }
                    done.countDown()
                }
            }
        }
        XCTAssertTrue(done.wait(for: threads * perThread))
        XCTAssertEqual(failures.values, [])
        XCTAssertEqual(try count("clicks"), Int64(threads * perThread))
        let stats = store.statistics
        XCTAssertGreaterThanOrEqual(stats.jobs, threads * perThread)
        XCTAssertGreaterThan(stats.largestBatch, 1, "concurrent writes should share commits")
        XCTAssertLessThan(stats.batches, stats.jobs)
    }

    func testAThrowingJobFailsAloneWhileItsBatchMatesCommit() throws {
        struct Refused: Error {}
        let gate = holdWriter()
        let results = Box<(String, Result<Int, StoreError>)>()
        let done = Latch()
        let before = store.statistics.batches
        for name in ["a", "b", "c", "d"] {
            store.write({ tx -> Int in
                try tx.insertClick(Fixture.click(id: "biq_clk_" + name, at: 1))
                if name == "b" { throw StoreError.conflict(.unnamed) }
                if name == "d" { throw Refused() }
                return 1
            }) { result in
                results.append((name, result))
                done.countDown()
            }
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 4))
        let byName = Dictionary(uniqueKeysWithValues: results.values.map { ($0.0, $0.1) })
        XCTAssertEqual(try byName["a"]?.get(), 1)
        XCTAssertEqual(try byName["c"]?.get(), 1)
        guard case .failure(.conflict(.unnamed)) = byName["b"] else {
            return XCTFail("b keeps its own error: \(String(describing: byName["b"]))")
        }
        guard case .failure(.backend(-1, let message)) = byName["d"] else {
            return XCTFail("a foreign error becomes .backend(-1): \(String(describing: byName["d"]))")
        }
        XCTAssertTrue(message.contains("Refused"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_a"))
        XCTAssertNil(try reader.click(id: "biq_clk_b"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_c"))
        XCTAssertNil(try reader.click(id: "biq_clk_d"))
        XCTAssertEqual(try countedClicks(), 2, "the failed jobs' clicks are not counted")
        XCTAssertEqual(store.statistics.batches - before, 1, "a-d shared one batch")
    }

    func testAfterAFailureTheBatchRunsAgainWithoutTheFailedBody() throws {
        let runs = Box<String>()
        let gate = holdWriter()
        let done = Latch()
        let results = Box<(String, Bool)>()
        for name in ["a", "b", "c"] {
            store.write({ tx in
                runs.append(name)
                try tx.insertClick(Fixture.click(id: "biq_clk_" + name, at: 1))
                if name == "b" { throw StoreError.conflict(.unnamed) }
            }) { r in
                results.append((name, (try? r.get()) != nil))
                done.countDown()
            }
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 3))
        // a, b (fails: rolled back), then a and c again without b.
        XCTAssertEqual(runs.values, ["a", "b", "a", "c"])
        XCTAssertEqual(results.values.map(\.0), ["a", "b", "c"], "completions in submission order")
        XCTAssertEqual(results.values.map(\.1), [true, false, true])
        XCTAssertEqual(try count("clicks"), 2)
        XCTAssertEqual(try countedClicks(), 2, "a rerun pass counts its clicks once")
    }

    func testCompletionRunsOnlyAfterTheCommitIsVisibleToOtherConnections() throws {
        let outside = Handover(try outsideConnection())
        let seen = Box<Int64>()
        let done = Latch()
        for i in 0..<20 {
            store.write({ tx in try tx.insertClick(Fixture.click(id: "biq_clk_\(i)", at: Int64(i))) }) { result in
                // Completions run on the writer thread one after another; the outside connection is used only here.
                let n =
                    (try? outside.value.integer("SELECT count(*) FROM clicks WHERE id = 'biq_clk_\(i)'")) ?? -1
                seen.append(n)
                done.countDown()
            }
        }
        XCTAssertTrue(done.wait(for: 20))
        XCTAssertEqual(seen.values, Array(repeating: 1, count: 20))
    }

    func testAFailedCommitFailsEveryJobOfItsBatchAndKeepsNothing() throws {
        let gate = holdWriter()
        let results = Box<(String, Result<Void, StoreError>)>()
        let done = Latch()
        store.write({ tx in try tx.putDomain(Fixture.domain("kept-not.example.com")) }) { r in
            results.append(("domain", r))
            done.countDown()
        }
        store.write({ tx in try tx.insertClick(Fixture.click(id: "biq_clk_lost", at: 1)) }) { r in
            results.append(("click", r))
            done.countDown()
        }
        store.write({ tx in
            // A deferred foreign key is only checked at COMMIT, which then fails.
            try (tx as! SQLiteTransaction).executeForTesting("PRAGMA defer_foreign_keys = ON")
            try tx.putLink(Fixture.link(host: "missing.example.com", appId: nil))
        }) { r in
            results.append(("link", r))
            done.countDown()
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 3))
        for (name, result) in results.values {
            guard case .failure(.backend) = result else { return XCTFail("\(name) should fail: \(result)") }
        }
        XCTAssertNil(try reader.domain("kept-not.example.com"))
        XCTAssertEqual(try count("domains"), 0)
        XCTAssertEqual(try count("clicks"), 0)
        XCTAssertEqual(try count("click_counts"), 0)
        XCTAssertEqual(store.statistics.failedCommits, 1)
        // The writer carries on, and the failed batch's counts do not leak into the next one.
        try write { tx in
            try tx.putDomain(Fixture.domain())
            try tx.insertClick(Fixture.click(id: "biq_clk_kept", at: 1))
        }
        XCTAssertEqual(try count("domains"), 1)
        XCTAssertEqual(try countedClicks(), 1)
    }

    func testCloseDrainsQueuedWritesThenRefusesNewOnes() throws {
        let gate = holdWriter()
        let done = Latch()
        let failures = Box<StoreError>()
        for i in 0..<100 {
            store.write({ tx in try tx.insertClick(Fixture.click(id: "biq_clk_\(i)", at: 1)) }) { r in
                if case .failure(let e) = r { failures.append(e) }
                done.countDown()
            }
        }
        let closer = OSThread(name: "test-close") { [store] in store!.close() }
        usleep(20_000)
        gate.release()
        closer.join()
        XCTAssertTrue(done.wait(for: 100))
        XCTAssertEqual(failures.values, [])
        XCTAssertEqual(try count("clicks"), 100)

        let late = Box<Result<Int, StoreError>>()
        store.write({ _ in 1 }) { late.append($0) }
        XCTAssertEqual(late.values.count, 1)
        guard case .failure(.closed) = late.values[0] else { return XCTFail("expected .closed") }
        XCTAssertThrowsError(try store.writeAndWait { _ in 1 }) { XCTAssertEqual($0 as? StoreError, .closed) }
        store.close()  // twice is harmless
    }

    func testWriteAndWaitFromTheWriterThreadIsRefusedInsteadOfDeadlocking() throws {
        let done = Latch()
        let outcome = Box<StoreError?>()
        let store = self.store!
        store.write({ _ in 1 }) { _ in
            do throws(StoreError) {
                _ = try store.writeAndWait { _ in 2 }
                outcome.append(nil)
            } catch {
                outcome.append(error)
            }
            done.countDown()
        }
        XCTAssertTrue(done.wait(for: 1))
        guard case .some(.backend(-1, _)) = outcome.values.first else {
            return XCTFail("expected a refusal, got \(outcome.values)")
        }
    }

    func testClosingFromACompletionDoesNotWaitForItself() throws {
        let done = Latch()
        let store = self.store!
        store.write({ _ in 1 }) { _ in
            store.close()
            done.countDown()
        }
        XCTAssertTrue(done.wait(for: 1, seconds: 5))
        XCTAssertThrowsError(try store.writeAndWait { _ in 1 })
    }

    func testReadsInsideABatchSeeTheEarlierJobsWrites() throws {
        let gate = holdWriter()
        let done = Latch()
        let seen = Box<Bool>()
        store.write({ tx in try tx.putDomain(Fixture.domain()) }) { _ in done.countDown() }
        store.write({ tx in try tx.domain(Fixture.host) != nil }) { r in
            seen.append((try? r.get()) ?? false)
            done.countDown()
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 2))
        XCTAssertEqual(seen.values, [true])
    }
}

/// The same writer with one savepoint per body: every body runs exactly once.
final class SavepointGroupCommitTests: StoreTestCase {
    override func makeOptions() -> SQLiteStore.Options {
        var options = super.makeOptions()
        options.optimisticBatches = false
        return options
    }

    func testEachBodyRunsOnceAndOnlyTheFailedOneIsRolledBack() throws {
        let runs = Box<String>()
        let gate = holdWriter()
        let done = Latch()
        for name in ["a", "b", "c"] {
            store.write({ tx in
                runs.append(name)
                try tx.insertClick(Fixture.click(id: "biq_clk_" + name, at: 1))
                if name == "b" { throw StoreError.conflict(.unnamed) }
            }) { _ in done.countDown() }
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 3))
        XCTAssertEqual(runs.values, ["a", "b", "c"])
        XCTAssertNotNil(try reader.click(id: "biq_clk_a"))
        XCTAssertNil(try reader.click(id: "biq_clk_b"))
        XCTAssertNotNil(try reader.click(id: "biq_clk_c"))
        XCTAssertEqual(try countedClicks(), 2, "a rolled-back savepoint takes its counts with it")
    }
}

extension SavepointGroupCommitTests {
    func testAFailedJobThatReadTheCountsTakesOnlyItsOwnClickBack() throws {
        let gate = holdWriter()
        let done = Latch()
        for name in ["a", "b", "c"] {
            store.write({ tx in
                try tx.insertClick(Fixture.click(id: "biq_clk_" + name, at: 1))
                if name == "b" {
                    // Reading the counts writes the batch's pending ones (a's and b's) inside b's savepoint.
                    XCTAssertEqual(try tx.analytics(app: Fixture.appId, since: 0, recent: 0).clicks.first?.count, 2)
                    throw StoreError.conflict(.unnamed)
                }
            }) { _ in done.countDown() }
        }
        gate.release()
        XCTAssertTrue(done.wait(for: 3))
        XCTAssertEqual(try count("clicks"), 2)
        XCTAssertEqual(try countedClicks(), 2)
    }
}

/// Runs `body(index)` on `threads` new threads and waits for all of them.
enum DispatchQueueless {
    static func run(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let workers = (0..<threads).map { t in OSThread(name: "test-\(t)") { body(t) } }
        for w in workers { w.join() }
    }
}
