import Resolver

/// `/metrics` about the resolver's fleet rate-limit sync (decision 0016): only where it
/// runs (PostgreSQL; a SQLite edge is alone and shares nothing).
enum FleetSyncMetrics {
    static func text(_ s: FleetSyncStatistics?) -> String {
        guard let s else { return "" }
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ lines: [String]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for line in lines { text += name + line + "\n" }
        }
        metric(
            "biqli_fleet_rate_limit_syncs_total", "counter",
            "Exchanges of rate-limit counts with the other nodes that succeeded (every 100 ms).", [" \(s.syncs)"])
        metric(
            "biqli_fleet_rate_limit_sync_failures_total", "counter",
            "Exchanges of rate-limit counts that failed (the database away); tried again every 100 ms.",
            [" \(s.failures)"])
        metric(
            "biqli_fleet_rate_limit_sync_age_seconds", "gauge",
            "Seconds since the last exchange that succeeded (since the start, before the first); "
                + "past 1 s the node decides its rate limits alone.",
            [" \(Double(s.millisecondsSinceSync) / 1_000)"])
        metric(
            "biqli_fleet_rate_limit_nodes", "gauge",
            "Live nodes the buckets are divided by, this one included, as the last exchange counted them "
                + "(1 while the node decides alone).", [" \(s.nodes)"])
        metric(
            "biqli_fleet_rate_limit_unsynced_admissions_total", "counter",
            "Requests a rate-limit bucket admitted while this node decided alone, its exchanges having failed "
                + "for more than 1 s: not held by the fleet's limit.",
            s.unsyncedAdmissions.map { "{bucket=\"\($0.bucket)\"} \($0.count)" })
        return text
    }
}
