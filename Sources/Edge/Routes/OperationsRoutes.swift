import Core
import HTTP
import HTTPMessages
import Model
import Resolver
import Store

/// `/healthz` and `/metrics`.
///
/// `/metrics` is served on the operator's metrics listener when one is configured;
/// without one, only to loopback clients on the main listeners (the client as resolved
/// through trusted proxies: a request through a proxy that names no client is refused),
/// so that counters do not leak to the internet by default.
enum OperationsRoutes {
    static func install(
        on router: RouterBuilder, server: HTTPServer, backend: StoreBackend, clicks: ClickRecorder,
        certificates: CertificateHealth, configuration: EdgeConfiguration, clients: ClientAddressResolver,
        domainCertificates: @escaping @Sendable (RequestContext) -> String = { _ in "" },
        fleetSync: @escaping @Sendable () -> FleetSyncStatistics? = { nil }
    ) {
        let healthy: HTTPResponse = {
            var r = HTTPResponse(status: 200, contentType: "application/json", body: #"{"status":"ok"}"#)
            r.headers.add("Cache-Control", "no-store")
            return r
        }()
        let degraded: HTTPResponse = {
            var r = HTTPResponse(
                status: 200, contentType: "application/json", body: #"{"status":"degraded","store":"unreachable"}"#)
            r.headers.add("Cache-Control", "no-store")
            return r
        }()
        // 200 either way: visits still answer from the caches while the database is away,
        // and a balancer that took every node out for it would turn a degraded service
        // into an outage. The body says which (and `biqli_store_reachable` on /metrics).
        router.add([.get], "/healthz", name: "healthz") { _, _, _ in
            .response(backend.isReachable ? healthy : degraded)
        }
        let dedicated = configuration.metricsAddress != nil
        let node = nodeText(node: configuration.node, backend: backend.name) + testClockText(Clock.backMilliseconds)
        router.add([.get], "/metrics", name: "metrics") { request, context, _ in
            // Without a listener of its own, only to this machine: the client as resolved
            // through trusted proxies, never the proxy's own loopback address.
            let allowed =
                dedicated
                ? context.listener == .metrics
                : (context.listener != .metrics && clients.client(context, request.headers).isLoopback)
            guard allowed else { return .response(.text(404, "not found\n")) }
            // Read on this loop (its store reader), before the answer moves to another one.
            let perDomain = domainCertificates(context)
            let responder = context.deferResponse()
            server.metrics { snapshot in
                var r = HTTPResponse(
                    status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                    body: node + snapshot.prometheusText() + backendText(backend) + clicksText(clicks)
                        + FleetSyncMetrics.text(fleetSync()) + certificates.metricsText + perDomain)
                r.headers.add("Cache-Control", "no-store")
                responder.respond(r)
            }
            return .deferred
        }
    }

    /// Which node answers, running what: `biqli_node_info{node,version,backend} 1`, the
    /// labels to join every other series of this process on. The node name and the
    /// version need no escaping (`NodeName`'s characters).
    static func nodeText(node: String, backend: String) -> String {
        "# HELP biqli_node_info This edge process: its node name (BIQLI_EDGE_NODE), version and store backend.\n"
            + "# TYPE biqli_node_info gauge\n"
            + "biqli_node_info{node=\"\(node)\",version=\"\(EdgeCommand.version)\",backend=\"\(backend)\"} 1\n"
    }

    /// `biqli_test_clock_back_seconds`, only while the test clock is on (tests only,
    /// `BIQLI_EDGE_TEST_CLOCK_BACK_MS`): an edge whose time is not the world's says so.
    static func testClockText(_ backMilliseconds: Int64) -> String {
        guard backMilliseconds > 0 else { return "" }
        return text([
            (
                "biqli_test_clock_back_seconds", "gauge",
                "Seconds this edge's wall clock is set back (BIQLI_EDGE_TEST_CLOCK_BACK_MS, tests only).",
                String(Double(backMilliseconds) / 1_000)
            )
        ])
    }

    /// The store's counters, by backend.
    static func backendText(_ backend: StoreBackend) -> String {
        switch backend {
        case .sqlite(let s): return storeText(s.statistics) + diskText(s.diskUsage) + reachableText(true)
        case .postgresql(let s): return postgresText(s.statistics)
        }
    }

    static func reachableText(_ reachable: Bool) -> String {
        text([
            (
                "biqli_store_reachable", "gauge", "1 when the store's database can be reached (PostgreSQL), else 0.",
                reachable ? "1" : "0"
            )
        ])
    }

    /// The PostgreSQL store's counters.
    static func postgresText(_ s: PGStore.Statistics) -> String {
        text([
            ("biqli_store_batches_total", "counter", "Group-commit transactions run by the writer.", "\(s.batches)"),
            ("biqli_store_jobs_total", "counter", "Writes handed to the writer.", "\(s.jobs)"),
            (
                "biqli_store_failed_jobs_total", "counter",
                "Write attempts that failed (a request got an error, or a click write is tried again).",
                "\(s.failedJobs)"
            ),
            ("biqli_store_failed_commits_total", "counter", "Batches whose COMMIT failed.", "\(s.failedCommits)"),
            ("biqli_store_largest_batch", "gauge", "Most writes in one batch so far.", "\(s.largestBatch)"),
            (
                "biqli_store_reconnects_total", "counter", "Times the writer connected to PostgreSQL again.",
                "\(s.reconnects)"
            ),
            (
                "biqli_store_external_changes_total", "counter",
                "Changes by other processes (the CLI, other edges) that dropped the caches.", "\(s.externalChanges)"
            ),
            (
                "biqli_store_writer_cpu_seconds_total", "counter", "CPU time of the writer thread.",
                "\(Double(s.writerCPUNanoseconds) / 1e9)"
            ),
        ]) + reachableText(s.reachable)
    }

    /// The store's counters in Prometheus text format.
    static func storeText(_ s: SQLiteStore.Statistics) -> String {
        let rows: [(name: String, type: String, help: String, value: String)] = [
            ("biqli_store_batches_total", "counter", "Group-commit transactions run by the writer.", "\(s.batches)"),
            ("biqli_store_jobs_total", "counter", "Writes handed to the writer.", "\(s.jobs)"),
            (
                "biqli_store_failed_jobs_total", "counter",
                "Write attempts that failed (a request got an error, or a click write is tried again).",
                "\(s.failedJobs)"
            ),
            ("biqli_store_failed_commits_total", "counter", "Batches whose COMMIT failed.", "\(s.failedCommits)"),
            ("biqli_store_largest_batch", "gauge", "Most writes in one batch so far.", "\(s.largestBatch)"),
            ("biqli_store_checkpoints_total", "counter", "Background WAL checkpoints.", "\(s.checkpoints)"),
            (
                "biqli_store_wal_resets_total", "counter", "Checkpoints after which the WAL started over.",
                "\(s.walResets)"
            ),
            (
                "biqli_store_writer_cpu_seconds_total", "counter", "CPU time of the writer thread.",
                "\(Double(s.writerCPUNanoseconds) / 1e9)"
            ),
            (
                "biqli_probabilistic_candidates", "gauge", "iOS clicks held as probabilistic candidates (last hour).",
                "\(s.probabilisticCandidates)"
            ),
            (
                "biqli_probabilistic_candidates_dropped_total", "counter",
                "Candidates forgotten early because the index was full (raise its capacity when this grows).",
                "\(s.candidatesDroppedAtCapacity)"
            ),
        ]
        return text(rows)
    }

    /// The database's size on disk and the space left beside it.
    static func diskText(_ d: SQLiteStore.DiskUsage) -> String {
        var rows: [(name: String, type: String, help: String, value: String)] = [
            ("biqli_store_database_bytes", "gauge", "Size of the database file.", "\(d.databaseBytes)"),
            ("biqli_store_wal_bytes", "gauge", "Size of the database's write-ahead log.", "\(d.walBytes)"),
        ]
        if let free = d.freeBytes {
            rows.append(
                (
                    "biqli_store_disk_free_bytes", "gauge",
                    "Space left on the file system of the database (alert before it runs out: writes then fail).",
                    "\(free)"
                ))
        }
        if let size = d.sizeBytes {
            rows.append(
                (
                    "biqli_store_disk_size_bytes", "gauge",
                    "Size of the file system of the database (with biqli_store_disk_free_bytes: how full it is).",
                    "\(size)"
                ))
        }
        return text(rows)
    }

    /// The click recorder's counters: clicks written after their answer that wait for
    /// the store, and those dropped because too many waited.
    static func clicksText(_ clicks: ClickRecorder) -> String {
        text([
            (
                "biqli_clicks_waiting", "gauge",
                "Clicks written after their answer (and preview-bot visits) waiting for the store.",
                "\(clicks.waitingCount)"
            ),
            (
                "biqli_clicks_dropped_total", "counter",
                "Clicks (and preview-bot visits) dropped because too many waited for a store that was not writing.",
                "\(clicks.droppedCount)"
            ),
        ])
    }

    private static func text(_ rows: [(name: String, type: String, help: String, value: String)]) -> String {
        var out = ""
        for row in rows {
            out += "# HELP \(row.name) \(row.help)\n# TYPE \(row.name) \(row.type)\n\(row.name) \(row.value)\n"
        }
        return out
    }
}
