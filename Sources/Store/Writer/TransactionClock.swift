/// The time of a write body's batch.
public protocol TransactionClock: AnyObject {
    /// Milliseconds since the epoch, taken when the batch began: every body of a batch
    /// sees the same.
    var now: Int64 { get }
}
