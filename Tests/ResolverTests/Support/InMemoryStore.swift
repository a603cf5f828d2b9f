import Dispatch
import Foundation
import Model
import Store

/// A `Store` in memory, faithful to the protocol's threading model so that the
/// resolver's tests do not depend on SQLite:
///
/// - write bodies run one at a time on a single serial writer queue, in
///   batches (every write queued while a batch runs joins the next one);
/// - each body works on its own copy of the state (a savepoint): a body that
///   throws leaves nothing behind and fails only its own request;
/// - completions run on the writer queue after the whole batch is committed,
///   and readers only ever see committed state.
final class InMemoryStore: Store, @unchecked Sendable {
    typealias Job = @Sendable (MemoryAccess) -> (committed: Bool, complete: @Sendable () -> Void)

    private let lock = NSLock()
    private var state = MemoryState()
    private var pending: [Job] = []
    private var scheduled = false
    private var isClosed = false
    private let queue = DispatchQueue(label: "InMemoryStore.writer")
    private var readers: [MemoryAccess] = []
    private let clock: @Sendable () -> Int64

    /// Counters for tests.
    private(set) var batches = 0
    private(set) var bodiesRun = 0
    /// Thrown once by the next `insertOpenEvent` (fault injection).
    var failNextOpenEventInsert: StoreError? {
        get { lock.withLock { _failNext } }
        set { lock.withLock { _failNext = newValue } }
    }
    private var _failNext: StoreError?

    init(readerCount: Int = 4, clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) })
    {
        self.clock = clock
        self.readers = []
        for _ in 0..<readerCount { readers.append(MemoryAccess(store: self)) }
    }

    var committed: MemoryState { lock.withLock { state } }

    var publishableKeysVersion: UInt64 { lock.withLock { state.publishableKeysVersion } }

    func reader(loop: Int) -> any StoreReader { readers[loop % readers.count] }
    var readerCount: Int { readers.count }

    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        let job: Job = { [weak self] tx in
            do {
                if let fault = self?.takeFault() { tx.injectedFault = fault }
                let value = try body(tx)
                return (true, { completion(.success(value)) })
            } catch let error as StoreError {
                return (false, { completion(.failure(error)) })
            } catch {
                return (false, { completion(.failure(.backend(code: -1, message: "\(type(of: error))"))) })
            }
        }
        enqueue(job) { completion(.failure(.closed)) }
    }

    func write<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        let job: Job = { [weak self] tx in
            do {
                if let fault = self?.takeFault() { tx.injectedFault = fault }
                let value = try body(tx)
                return (true, { completion(.success(value)) })
            } catch let error as StoreError {
                return (false, { completion(.failure(.store(error))) })
            } catch let refusal as Refusal {
                return (false, { completion(.failure(.refused(refusal))) })
            } catch {
                return (
                    false, { completion(.failure(.store(.backend(code: -1, message: "\(type(of: error))")))) }
                )
            }
        }
        enqueue(job) { completion(.failure(.store(.closed))) }
    }

    private func enqueue(_ job: @escaping Job, closed: @escaping @Sendable () -> Void) {
        let (accepted, schedule) = lock.withLock { () -> (Bool, Bool) in
            if isClosed { return (false, false) }
            pending.append(job)
            if scheduled { return (true, false) }
            scheduled = true
            return (true, true)
        }
        guard accepted else {
            queue.async { closed() }
            return
        }
        if schedule { queue.async { self.drain() } }
    }

    func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws(StoreError)
        -> T
    {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        write(body) { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return try box.get().get()
    }

    /// Retention is not kept here (no suite of it runs on this store).
    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int { throw MemoryAccess.notKept("retention") }

    func close() {
        lock.withLock { isClosed = true }
        queue.sync {}
    }

    /// Seeds data directly (committed at once), for test set-up.
    func seed(_ body: (inout MemoryState) -> Void) {
        lock.withLock { body(&state) }
    }

    private func takeFault() -> StoreError? {
        lock.withLock {
            defer { _failNext = nil }
            return _failNext
        }
    }

    private func drain() {
        let jobs: [Job] = lock.withLock {
            scheduled = false
            defer { pending = [] }
            return pending
        }
        guard !jobs.isEmpty else { return }
        var working = committed
        var completions: [@Sendable () -> Void] = []
        for job in jobs {
            let tx = MemoryAccess(transaction: working, now: clock())
            let outcome = job(tx)
            if outcome.committed { working = tx.local! }  // else: the savepoint rolls back
            completions.append(outcome.complete)
        }
        lock.withLock {
            state = working
            batches += 1
            bodiesRun += jobs.count
        }
        for c in completions { c() }
    }
}

/// One result handed between threads.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<T, StoreError>?

    func set(_ v: Result<T, StoreError>) { lock.withLock { value = v } }
    func get() -> Result<T, StoreError> { lock.withLock { value! } }
}
