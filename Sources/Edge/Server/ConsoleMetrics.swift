import Synchronization

/// `/metrics` about the console's background work (decision 0029): the overview's counts
/// that succeeded and those that failed (each also a log line). A failed count never
/// stops the edge; this is how an operator sees one without reading the log.
final class ConsoleMetrics: Sendable {
    private let overviewCounted = Atomic<Int>(0)
    private let overviewFailed = Atomic<Int>(0)

    /// The console's `ConsoleEnvironment.counted`.
    func count(job: String, succeeded: Bool) {
        guard job == "overview" else { return }
        if succeeded {
            overviewCounted.add(1, ordering: .relaxed)
        } else {
            overviewFailed.add(1, ordering: .relaxed)
        }
    }

    var text: String {
        """
        # HELP biqli_console_overview_counts_total Counts of the console overview's numbers on its background thread, by result (a failure is logged as "console overview failed"; the page keeps the last count).
        # TYPE biqli_console_overview_counts_total counter
        biqli_console_overview_counts_total{result="counted"} \(overviewCounted.load(ordering: .relaxed))
        biqli_console_overview_counts_total{result="failed"} \(overviewFailed.load(ordering: .relaxed))

        """
    }
}
