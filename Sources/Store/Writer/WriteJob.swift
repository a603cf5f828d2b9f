/// One `write` request as the writer thread sees it: run the body inside the
/// batch, remember the outcome, report it after the commit.
///
/// A class hierarchy rather than an existential so the queue holds plain
/// references; `TypedWriteJob` carries the caller's result type.
class WriteJob: @unchecked Sendable {
    /// Set by `run` or `fail`; read by the writer to know whether a later
    /// transaction-wide failure must also fail this job.
    final var succeeded = false

    /// Runs the body; true when it returned, false when it threw.
    func run(_ transaction: SQLiteTransaction) -> Bool { fatalError("abstract") }
    /// Replaces the outcome: the batch did not commit.
    func fail(_ error: StoreError) { fatalError("abstract") }
    /// Calls the completion with the outcome; once.
    func complete() { fatalError("abstract") }
}

final class TypedWriteJob<T: Sendable>: WriteJob, @unchecked Sendable {
    private let body: @Sendable (any StoreTransaction) throws -> T
    private let completion: @Sendable (Result<T, StoreError>) -> Void
    private var result: Result<T, StoreError> = .failure(.closed)

    init(
        body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    override func run(_ transaction: SQLiteTransaction) -> Bool {
        do {
            result = .success(try body(transaction))
            succeeded = true
        } catch let error as StoreError {
            result = .failure(error)
            succeeded = false
        } catch {
            // `write` reports StoreError only; name the type (never the value, which may carry secrets).
            result = .failure(.backend(code: -1, message: "write body threw \(type(of: error))"))
            succeeded = false
        }
        return succeeded
    }

    override func fail(_ error: StoreError) {
        result = .failure(error)
        succeeded = false
    }

    override func complete() {
        completion(result)
    }

}

/// `TypedWriteJob<Void>` without generics, for the visit path's writes: the writer
/// calls a job through its class, where an unspecialised generic job looks up the
/// runtime type of `Result<T, StoreError>` (a locked cache) in `run`, in `complete`
/// and in its deinit, a few percent of the writer's instructions per write.
final class VoidWriteJob: WriteJob, @unchecked Sendable {
    private let body: @Sendable (any StoreTransaction) throws -> Void
    private let completion: @Sendable (Result<Void, StoreError>) -> Void
    private var failure: StoreError? = .closed

    init(
        body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    override func run(_ transaction: SQLiteTransaction) -> Bool {
        do {
            try body(transaction)
            failure = nil
            succeeded = true
        } catch let error as StoreError {
            failure = error
            succeeded = false
        } catch {
            failure = .backend(code: -1, message: "write body threw \(type(of: error))")
            succeeded = false
        }
        return succeeded
    }

    override func fail(_ error: StoreError) {
        failure = error
        succeeded = false
    }

    override func complete() {
        completion(failure.map { .failure($0) } ?? .success(()))
    }
}
