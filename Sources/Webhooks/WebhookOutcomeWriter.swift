import Core
import Model
import Store

/// An attempt made, its outcome not yet written.
struct Made: Sendable {
    var attempt: WebhookAttempt
    var claimedAttempts: Int
    var outcome: WebhookAttemptOutcome
    var at: Int64
}

/// Writes a delivery thread's outcomes (decision 0028), each only under its own lease, each
/// in a write body of its own (one batch of the writer's, a savepoint each when one fails): an
/// outcome the store refuses costs only itself, never the others of the group (issue 33
/// item 2). Queued in the rows' order by event then endpoint, the order in which an erasure
/// rewrites the same rows (event by event, each event's endpoints in key order), so that the
/// two, on two nodes of a fleet, wait for each other instead of deadlocking.
struct WebhookOutcomeWriter {
    let store: any Store
    /// The claims' owner (`<node>:<pid>`).
    let owner: String
    let statistics: WebhookStatistics
    let warn: @Sendable (String, [(String, String)]) -> Void

    /// The text an outcome is written with when the store refused it with the receiver's.
    static let bareError = "the attempt's outcome could not be stored with its answer"

    func record(_ unordered: [Made]) {
        let made = unordered.sorted {
            ($0.attempt.messageId, $0.attempt.endpointId) < ($1.attempt.messageId, $1.attempt.endpointId)
        }
        var refused: [Made] = []
        for (m, result) in zip(made, write(made)) {
            switch result {
            case .success(let ok): count(m, written: ok)
            case .failure(let error):
                warn(
                    "webhooks: cannot record an attempt",
                    [("endpoint", m.attempt.endpointId), ("id", m.attempt.messageId), ("error", "\(error)")])
                // The receiver's text is the only part that comes from outside: without it
                // the outcome counts (else it is sent again after the lease, forever).
                if !error.isTransient, m.attempt.answer != nil || m.attempt.error != nil {
                    var bare = m
                    bare.attempt.answer = nil
                    bare.attempt.error = Self.bareError
                    refused.append(bare)
                } else {
                    // Sent again after the lease (with the same webhook-id): the at-least-once window.
                    statistics.count(lost: true)
                }
            }
        }
        guard !refused.isEmpty else { return }
        for (m, result) in zip(refused, write(refused)) {
            if case .success(let ok) = result { count(m, written: ok) } else { statistics.count(lost: true) }
        }
    }

    /// Each outcome as a write of its own, queued in order; waits for all of them.
    private func write(_ made: [Made]) -> [Result<Bool, StoreError>] {
        let owner = self.owner
        let results = Monitor([Result<Bool, StoreError>?](repeating: nil, count: made.count))
        for (i, m) in made.enumerated() {
            store.write(
                { tx in
                    try tx.finishWebhookAttempt(
                        m.attempt, owner: owner, claimedAttempts: m.claimedAttempts, outcome: m.outcome, now: m.at)
                },
                completion: { result in
                    results.withLock { $0[i] = result }
                    results.broadcast()
                })
        }
        return results.withCondition { held in
            while held.state.contains(where: { $0 == nil }) { held.wait() }
            return held.state.map { $0! }
        }
    }

    private func count(_ m: Made, written: Bool) {
        switch (written, m.outcome) {
        case (false, _): statistics.count(lost: true)
        case (true, .delivered): statistics.count(delivered: true)
        case (true, .retry): statistics.count(retried: true)
        case (true, .failed): statistics.count(failed: true)
        }
    }
}
