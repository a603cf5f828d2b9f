import Store
import Synchronization

/// A real SQLite store whose writes (every read and write of the certificate manager goes
/// through one) fail as a PostgreSQL server out of reach makes them fail, while `away`.
final class FlakyStore: Store {
    let base: SQLiteStore
    let away = Atomic<Bool>(false)
    /// Writes refused while away.
    let refused = Atomic<Int>(0)
    /// Writes still taken before going away (`goAway(afterWrites:)`).
    private let remaining = Atomic<Int>(Int.max)

    init(base: SQLiteStore) { self.base = base }

    /// Takes `count` more writes, then is away.
    func goAway(afterWrites count: Int) { remaining.store(count, ordering: .releasing) }

    private func refusal() -> StoreError? {
        if remaining.load(ordering: .acquiring) != Int.max,
            remaining.subtract(1, ordering: .acquiringAndReleasing).newValue < 0
        {
            away.store(true, ordering: .releasing)
            remaining.store(Int.max, ordering: .releasing)
        }
        guard away.load(ordering: .acquiring) else { return nil }
        refused.add(1, ordering: .relaxed)
        return .unavailable("the test's store is away")
    }

    func reader(loop: Int) -> any StoreReader { base.reader(loop: loop) }
    var readerCount: Int { base.readerCount }

    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        if let refusal = refusal() { return completion(.failure(refusal)) }
        base.write(body, completion: completion)
    }

    func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws(StoreError)
        -> T
    {
        if let refusal = refusal() { throw refusal }
        return try base.writeAndWait(body)
    }

    func write<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        if let refusal = refusal() { return completion(.failure(.store(refusal))) }
        base.write(refusing: refusing, body, completion: completion)
    }

    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int {
        try base.prune(olderThan: olderThan, now: now)
    }

    func close() { base.close() }

    var publishableKeysVersion: UInt64 { base.publishableKeysVersion }
}
