/// Why a write whose body may refuse (`Store.write(refusing:_:completion:)`) failed:
/// either its body refused with the caller's own error, or the store failed.
///
/// A refusal rolls back only that body's work, like any throw, and reaches only its
/// own completion: the other writes of the batch commit. No sentinel travels through
/// `StoreError`, so a caller never has to tell its refusals from the store's failures
/// by their text.
public enum WriteError<Refusal: Error & Sendable>: Error, Sendable {
    /// The body threw a `Refusal`.
    case refused(Refusal)
    /// The body threw a `StoreError` (or another error, reported as `.backend`), or the
    /// batch did not commit.
    case store(StoreError)
}

extension WriteError: Equatable where Refusal: Equatable {}
