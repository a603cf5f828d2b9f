import Core
import HTTP
import Synchronization

/// What the loads of the certificate directory went through: logs each problem
/// (an unusable file at `error`, an expired one at `warn`) and keeps the counts that
/// `/metrics` shows.
final class CertificateHealth: Sendable {
    private struct Counts {
        var failing = 0
        var failuresTotal: UInt64 = 0
    }
    private let counts = Mutex(Counts())
    private let log: Log

    init(log: Log) { self.log = log }

    /// One load of the directory (at start, or a reload after a change or `SIGHUP`).
    func record(_ set: CertificateSet, reload: Bool) {
        let failed = set.failedFiles
        counts.withLock {
            $0.failing = failed.count
            $0.failuresTotal += UInt64(failed.count)
        }
        for issue in set.issues {
            let fields: [(String, JSONValue)] = [
                ("path", .string(issue.path)), ("detail", .string(issue.reason)),
            ]
            if issue.unusable {
                log.error(
                    issue.servingLastGood
                        ? "certificate file unusable; serving its last good certificate"
                        : "certificate file unusable", fields)
            } else {
                log.warn("certificate problem", fields)
            }
        }
        if reload {
            log.info("certificates reloaded", [("certificates", .array(set.hostnames.map { .string($0) }))])
        }
    }

    /// Prometheus text: files failing now, and failed loads since start.
    var metricsText: String {
        let c = counts.withLock { $0 }
        return """
            # HELP biqli_certificate_files_failing Certificate files that failed to load at the last (re)load (a file that loaded before keeps serving its last good certificate).
            # TYPE biqli_certificate_files_failing gauge
            biqli_certificate_files_failing \(c.failing)
            # HELP biqli_certificate_load_failures_total Failed loads of certificate files (each file, each reload).
            # TYPE biqli_certificate_load_failures_total counter
            biqli_certificate_load_failures_total \(c.failuresTotal)

            """
    }
}
