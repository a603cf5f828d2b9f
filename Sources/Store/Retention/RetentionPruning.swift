/// What retention deletes (`RetentionPruner`, `BIQLI_EDGE_RETENTION_DAYS`).
public protocol RetentionPruning: AnyObject {
    /// Deletes clicks, click counts (the links' daily ones of days wholly before
    /// `olderThan` too) and open events older than `olderThan`, handoffs and console
    /// sessions past expiry, in small batches; returns how many rows went.
    /// Retention is approximate at its edges: a backend may keep a row it could
    /// delete a little longer (the SQLite store deletes clicks by the time in
    /// their id, whole hours of counts, and handoffs by the time in their key),
    /// but never deletes a handoff before its expiry.
    func prune(olderThan: Int64, now: Int64) throws(StoreError) -> Int
}
