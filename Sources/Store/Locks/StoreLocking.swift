/// The fleet-wide locks of a write body.
public protocol StoreLocking: AnyObject {
    /// Holds `lock` until the transaction ends: writers in other processes sharing the
    /// database (several edges on PostgreSQL) that take the same lock wait. A no-op where
    /// one writer is all there is (SQLite's single writer per file).
    func lock(_ lock: StoreLock) throws(StoreError)
}

extension StoreLocking {
    /// One writer per database: nothing to wait for.
    public func lock(_ lock: StoreLock) throws(StoreError) {}
}
