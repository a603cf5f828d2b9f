/// What `StoreTransaction.bindHandoff` found and did.
public enum HandoffClaim: Sendable, Equatable {
    /// It was unclaimed: it is now bound to the instance and the open given.
    case claimed
    /// The same instance already holds it, since the open `openId` (nil when unknown).
    case heldBySameInstance(openId: String?)
    /// Another instance holds it.
    case heldByAnother
    /// There is no such handoff.
    case missing
}
