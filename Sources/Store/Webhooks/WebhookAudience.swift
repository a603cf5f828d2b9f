import Model

/// Whether any enabled endpoint may want an event, known once per batch (decision 0028,
/// "An event no endpoint wants"): the endpoints are read at the batch's first event and
/// kept until the batch ends, so that an event nobody subscribes to costs neither its
/// payload nor the outbox's statement. Most workspaces have no endpoint, and the resolver
/// writes an `open.created` for every live open.
///
/// A batch that writes an endpoint (created, changed, deleted, disabled by its failures)
/// stops trusting what it read and lets every event through to the statement, which
/// filters in SQL as before: a job rolled back to its savepoint may have made that write,
/// and what the batch read may no longer hold. The next batch reads again.
///
/// What this changes for an endpoint made by another writer or node: an event is decided
/// by what was committed when its batch read the endpoints, not when its statement ran.
/// Both moments are inside the event's batch, before its commit: an event committed just
/// after a new endpoint could already miss it (its statement ran before the endpoint's
/// commit); the window now opens at the batch's first event instead of at the statement.
struct WebhookAudience {
    private enum State {
        case unread
        case read([WebhookEndpoint])
        case changed
    }

    private var state = State.unread

    /// A new batch (or a pass of it run again after a rollback): read again.
    mutating func reset() { state = .unread }

    /// This batch wrote an endpoint: every event goes to the statement until the batch ends.
    mutating func endpointsChanged() { state = .changed }

    /// Whether the endpoints are still to be read in this batch (`remember`).
    var isUnread: Bool {
        if case .unread = state { return true }
        return false
    }

    /// True when some enabled endpoint wants the event, or the batch changed endpoints, or
    /// they were not read (then the statement decides).
    func wants(_ type: WebhookEventType, appId: String?, linkId: String?) -> Bool {
        switch state {
        case .unread, .changed: return true
        case .read(let endpoints): return endpoints.contains { $0.wants(type, appId: appId, linkId: linkId) }
        }
    }

    /// The endpoints read in this batch (ignored once the batch changed them).
    mutating func remember(_ endpoints: [WebhookEndpoint]) {
        guard case .unread = state else { return }
        state = .read(endpoints.filter(\.enabled))
    }
}

/// A writer transaction that keeps a batch's `WebhookAudience` (both stores'): the
/// endpoints are read at the batch's first event, from its own connection.
protocol WebhookAudienceKeeping: AnyObject, WebhookReading {
    var webhookAudience: WebhookAudience { get set }
}

extension WebhookAudienceKeeping {
    func webhookEventWanted(_ type: WebhookEventType, appId: String?, linkId: String?) throws(StoreError) -> Bool {
        if webhookAudience.isUnread { webhookAudience.remember(try webhookEndpoints()) }
        return webhookAudience.wants(type, appId: appId, linkId: linkId)
    }
}

extension WebhookWriting {
    /// Enqueues the event `make` builds only when some enabled endpoint may want it
    /// (`webhookEventWanted`): an event nobody subscribes to is not even built.
    @discardableResult
    public func enqueueWebhookEvent(
        _ type: WebhookEventType, appId: String?, linkId: String?, _ make: () -> WebhookEvent
    ) throws(StoreError) -> Int {
        guard try webhookEventWanted(type, appId: appId, linkId: linkId) else { return 0 }
        return try enqueueWebhookEvent(make())
    }
}
