import Core
import Model

/// Everything the edge and the resolver remember, behind one protocol so that a
/// PostgreSQL backend can replace SQLite without the layers above noticing.
///
/// Threading model:
/// - **Reads** on the hot path go through `reader(loop:)`: one reader per event
///   loop, used only from that loop's thread, with its own connection and cached
///   statements. Domains, apps and links come from in-memory caches first.
/// - **Writes** go through `write(_:completion:)`: the body runs on the single
///   writer thread inside the current group-commit batch (inside its own
///   savepoint), and `completion` runs on the writer thread once the batch is
///   durable. A body that throws rolls back only its own savepoint and fails only
///   its own request. A failed COMMIT fails every request of that batch.
/// - A body may run more than once (the SQLite store runs a batch without
///   savepoints and, when a body throws, rolls back and reruns the batch without
///   it): keep every effect of a body inside the transaction it is given, and
///   do not keep that transaction beyond the body.
public protocol Store: RetentionPruning, Sendable {
    /// The reader owned by event loop `loop` (0..<readerCount). Not thread-safe:
    /// call only from that loop's thread.
    func reader(loop: Int) -> any StoreReader
    var readerCount: Int { get }

    /// Runs `body` in the next group-commit batch; `completion` after the commit.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    )

    /// `write` for a body that returns nothing, such as the visit path's click and
    /// handoff; the same contract. A store may run these without the generic job
    /// (see `SQLiteStore`); the default forwards to the generic `write`.
    func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    )

    /// `write` for a body whose rows are kept right by unique keys and conditional updates
    /// rather than by the order of writes, and that changes no catalog row (the
    /// resolver's: an open event, its instance, a handoff's claim, a consumed click; a
    /// race it cannot see throws `.conflict` and is run again). A store may run such
    /// bodies on several connections at once, beside the other writes (PostgreSQL's
    /// concurrent writers, decision 0023); the default is `write`.
    func writeConcurrently<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    )

    /// Blocking form of `write` for the CLI, the management API's slow path and tests.
    func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) throws(StoreError)
        -> T

    /// `write` for a body that may refuse with its caller's own error type: when the
    /// body throws a `Refusal`, its work is rolled back as for any throw, the batch's
    /// other writes go on, and only this `completion` gets `.refused` with that value
    /// (also when the store ran the batch again without this body). A `StoreError`, or
    /// any other error, is `.store` as in `write`; so `Refusal` is never `StoreError`.
    func write<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    )

    /// `write(refusing:_:completion:)` for a body that `writeConcurrently` could take:
    /// rows kept right by unique keys and conditional updates, no catalog row changed
    /// (leads and sales, decision 0024). `lockOrder` names the row the body locks first
    /// and holds (`WriteJob.lockOrder`): bodies of one batch run in that order, so
    /// concurrent batches do not deadlock over them. The default is `write(refusing:)`.
    func writeConcurrently<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        lockOrder: String?,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    )

    /// Blocking form of `write(refusing:_:completion:)`, for the CLI's `apply` and tests.
    func writeAndWait<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) throws(WriteError<Refusal>) -> T

    /// Stops the writer after draining queued writes; further writes fail.
    func close()

    /// Changes (after the commit, before the writer's completions run) whenever a
    /// publishable key is added, rotated, revoked or deleted, also by another process
    /// (noticed within `externalChangePollMilliseconds`). A cache of key records is
    /// current while this is unchanged.
    var publishableKeysVersion: UInt64 { get }
}

/// The defaults of the write forms a store need not run its own way.
extension Store {
    public func writeConcurrently<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        write(body, completion: completion)
    }

    public func write(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        genericWrite(body, completion: completion)
    }

    public func writeConcurrently<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type,
        lockOrder: String?,
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        write(refusing: refusing, body, completion: completion)
    }

    /// Waits on the calling thread for `write(refusing:_:completion:)`.
    public func writeAndWait<T: Sendable, Refusal: Error & Sendable>(
        refusing: Refusal.Type, _ body: @escaping @Sendable (any StoreTransaction) throws -> T
    ) throws(WriteError<Refusal>) -> T {
        let waiter = ResultWaiter<T, WriteError<Refusal>>()
        write(refusing: refusing, body) { result in waiter.deliver(result) }
        return try waiter.wait().get()
    }

    /// Inside a generic context `write` resolves to the generic requirement, not to
    /// the Void one that calls this.
    private func genericWrite<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        write(body, completion: completion)
    }
}
