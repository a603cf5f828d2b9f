import Model

/// One `write` request as the writer thread sees it: run the body inside the
/// batch, remember the outcome, report it after the commit.
///
/// A class hierarchy rather than an existential so the queue holds plain
/// references; the subclasses hold the body and the caller's completion.
// @unchecked: handed over whole: made by the submitting thread, then run, failed and completed by
// the writer thread alone (`WriteQueue`'s lock orders the hand-off; no one else keeps the job).
class WriteJob: @unchecked Sendable {
    /// What to report: nil once the body returned (or refused), else why the job
    /// failed (`.closed` until it runs).
    final var failure: StoreError? = .closed
    /// The body threw its caller's own refusal (`RefusableWriteJob`): the job failed,
    /// and its completion reports the refusal whatever else happens to the batch.
    final var refused = false
    /// The row this job locks first and holds to the commit (a customer), for a job
    /// that may run beside other transactions: the writer runs such jobs in the order
    /// of their keys, after the jobs without one, so that two batches taking the same
    /// rows take them in the same order and wait for each other rather than deadlock.
    final var lockOrder: String?

    /// Read by the writer to know whether a later transaction-wide failure must
    /// also fail this job.
    final var succeeded: Bool { failure == nil && !refused }

    /// Its body returned, or has not run yet (in this pass): a failure of the whole
    /// transaction is its outcome. A body that threw or refused keeps its own.
    final var awaitsOutcome: Bool { succeeded || (failure == .closed && !refused) }

    /// Runs the body; true when it returned, false when it threw.
    func run(_ transaction: any StoreTransaction) -> Bool { fatalError("abstract") }
    /// Calls the completion with the outcome; once.
    func complete() { fatalError("abstract") }

    /// Replaces the outcome: the batch did not commit.
    final func fail(_ error: StoreError) { failure = error }

    /// Runs `body` and keeps its outcome; true when it returned.
    final func record(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            failure = nil
        } catch let error as StoreError {
            failure = error
        } catch {
            // `write` reports StoreError only; name the type (never the value, which may carry secrets).
            failure = .backend(code: -1, message: "write body threw \(type(of: error))")
        }
        return succeeded
    }
}

// @unchecked: a `WriteJob` (`value` is set and read on the writer thread only).
final class TypedWriteJob<T: Sendable>: WriteJob, @unchecked Sendable {
    private let body: @Sendable (any StoreTransaction) throws -> T
    private let completion: @Sendable (Result<T, StoreError>) -> Void
    private var value: T?

    init(
        body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, StoreError>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    override func run(_ transaction: any StoreTransaction) -> Bool {
        record { value = try body(transaction) }
    }

    override func complete() {
        if let failure {
            completion(.failure(failure))
        } else if let value {
            completion(.success(value))
        } else {
            preconditionFailure("a job that did not fail has its body's value")
        }
    }
}

/// `TypedWriteJob<Void>` without generics, for the visit path's writes: the writer
/// calls a job through its class, where an unspecialised generic job looks up the
/// runtime type of its generic fields (a locked cache) in `run`, in `complete` and in
/// its deinit, a few percent of the writer's instructions per write.
// @unchecked: a `WriteJob` (its own fields are constants; the conformance must be restated).
final class VoidWriteJob: WriteJob, @unchecked Sendable {
    private let body: @Sendable (any StoreTransaction) throws -> Void
    private let completion: @Sendable (Result<Void, StoreError>) -> Void

    init(
        body: @escaping @Sendable (any StoreTransaction) throws -> Void,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    override func run(_ transaction: any StoreTransaction) -> Bool {
        record { try body(transaction) }
    }

    override func complete() {
        completion(failure.map { .failure($0) } ?? .success(()))
    }
}

/// A job whose body may refuse with `Refusal` (`Store.write(refusing:_:completion:)`).
/// The refusal is kept in the job itself, so it reaches this job's completion only,
/// also when the writer reruns the batch without the job.
// @unchecked: a `WriteJob` (`value` and `refusal` are set and read on the writer thread only).
final class RefusableWriteJob<T: Sendable, Refusal: Error & Sendable>: WriteJob, @unchecked Sendable {
    private let body: @Sendable (any StoreTransaction) throws -> T
    private let completion: @Sendable (Result<T, WriteError<Refusal>>) -> Void
    private var value: T?
    private var refusal: Refusal?

    init(
        body: @escaping @Sendable (any StoreTransaction) throws -> T,
        completion: @escaping @Sendable (Result<T, WriteError<Refusal>>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    override func run(_ transaction: any StoreTransaction) -> Bool {
        refusal = nil
        refused = false
        return record {
            do {
                value = try body(transaction)
            } catch let error as StoreError {
                throw error
            } catch let error as Refusal {
                refusal = error
                refused = true
            }
        }
    }

    override func complete() {
        if let refusal {
            completion(.failure(.refused(refusal)))
        } else if let failure {
            completion(.failure(.store(failure)))
        } else if let value {
            completion(.success(value))
        } else {
            preconditionFailure("a job that did not fail has its body's value")
        }
    }
}
