import Model
import Store

/// What a visit needs of the store (issue 34 item 5's seam): the link and its app from the
/// serving loop's reader (its caches), and the durable write of a click with its handoff.
/// `StoreVisits` in service; the unit tests' store answers from memory, or is away.
protocol VisitStore: Sendable {
    func link(host: String, key: String, loop: Int) throws(StoreError) -> Link?
    func app(_ id: String, loop: Int) throws(StoreError) -> MobileApp?
    /// The workspace's switches of the in-app escapes (decision 0033 §5), from the loop's
    /// catalog snapshot; nil when it has none.
    func inAppEscapes(loop: Int) -> InAppEscapeSwitches?
    /// Writes `click` (and `handoff`) through the store's group commit; `completion` runs
    /// once they are durable, or the write failed.
    func write(
        _ click: consuming Click, handoff: consuming Handoff?,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void)
}
