import Certificates
import Core
import HTTP
import Outbound
import Store

/// `BIQLI_EDGE_ACME=on`: the certificate manager (`Certificates`) wired to this edge: it
/// learns the configured domains from loop 0's catalog snapshot, what the certificate
/// directory covers from the server, and hands the server the certificates to serve and
/// the TLS-ALPN-01 certificates to present; its events become log lines.
final class CertificateAutomation: Sendable {
    let manager: CertificateManager
    let alpn: ALPNCertificates

    /// Builds the manager; `start` runs it once the server listens. Fails when the CA's
    /// roots cannot be read.
    init(
        configuration: EdgeConfiguration, store: any Store, fleet: Bool, server: HTTPServer, alpn: ALPNCertificates,
        log: Log
    )
        throws(EdgeStartError)
    {
        let acme = configuration.acme
        var challenges: [ACMEChallengeRecord.Kind] = []
        if configuration.httpAddress != nil { challenges.append(.http01) }
        if configuration.httpsAddress != nil { challenges.append(.tlsALPN01) }
        var policy = RenewalPolicy()
        if let wait = acme.testBackoffMilliseconds { policy.backoffBase = wait }
        let settings = ACMESettings(
            directoryURL: acme.directory, email: acme.email,
            externalAccount: acme.eabKeyID.flatMap { kid in
                acme.eabMACKey.map { ExternalAccount(keyID: kid, macKey: $0) }
            },
            rootsFile: acme.caRoots, node: configuration.node, userAgent: "biqli-edge/\(EdgeCommand.version)",
            challenges: challenges, fleet: fleet, policy: policy)
        let loop0 = LoopZeroDomains(server: server, store: store)
        let hooks = CertificateManagerHooks(
            domains: { loop0.current() },
            directoryCovers: { host in server.certificates.directoryCovers(host) },
            serve: { list in
                server.supply(list.map { SuppliedCertificate(hostname: $0.hostname, pem: $0.pem, version: $0.version) })
            },
            presentALPN: { host, pem in
                do throws(TLSError) {
                    try alpn.set(hostname: host, pem: pem)
                } catch {
                    log.error(
                        "cannot present a TLS-ALPN-01 certificate",
                        [("hostname", .string(host)), ("detail", .string(error.description))])
                }
            },
            withdrawALPN: { host in alpn.remove(hostname: host) },
            event: { event in CertificateAutomation.log(event, log) })
        do throws(NetworkError) {
            manager = try CertificateManager(settings: settings, store: store, hooks: hooks)
        } catch {
            throw .io("BIQLI_EDGE_ACME_CA_ROOTS: \(error)")
        }
        self.alpn = alpn
    }

    func start() { manager.start() }

    func stop() { manager.stop() }

    static func log(_ event: CertificateEvent, _ log: Log) {
        switch event {
        case .accountRegistered(let directory, let account):
            log.info("ACME account registered", [("directory", .string(directory)), ("account", .string(account))])
        case .orderStarted(let host, let renewal):
            log.info("certificate order started", [("hostname", .string(host)), ("renewal", .bool(renewal))])
        case .challengePublished(let host, let kind):
            log.debug("ACME challenge published", [("hostname", .string(host)), ("challenge", .string(kind))])
        case .issued(let host, let notAfter, let issuer, let renewalAt):
            log.info(
                "certificate issued",
                [
                    ("hostname", .string(host)), ("notAfter", .string(Timestamp.format(milliseconds: notAfter))),
                    ("issuer", .string(issuer)), ("renewalAt", .string(Timestamp.format(milliseconds: renewalAt))),
                ])
        case .orderFailed(let host, let problem, let failures, let next):
            log.warn(
                "certificate order failed",
                [
                    ("hostname", .string(host)), ("type", .string(problem.type)), ("detail", .string(problem.detail)),
                    ("status", problem.status.map { .int(Int64($0)) } ?? .null), ("failures", .int(Int64(failures))),
                    ("nextAttemptAt", .string(Timestamp.format(milliseconds: next))),
                ])
        case .renewalInformation(let host, let renewalAt):
            log.info(
                "certificate renewal time from the CA",
                [("hostname", .string(host)), ("renewalAt", .string(Timestamp.format(milliseconds: renewalAt)))])
        case .storeFailed(let detail):
            log.error("certificate manager cannot use the store", [("detail", .string(detail))])
        }
    }

    /// Prometheus text: order outcomes and `badNonce` retries since start.
    var metricsText: String {
        let outcomes = manager.orderOutcomes
        var text = "# HELP biqli_acme_orders_total Certificate orders finished by this node, by result.\n"
        text += "# TYPE biqli_acme_orders_total counter\n"
        for result in ["issued", "failed", "rate_limited"] {
            text += "biqli_acme_orders_total{result=\"\(result)\"} \(outcomes[result] ?? 0)\n"
        }
        text += "# HELP biqli_acme_bad_nonce_retries_total ACME requests sent again after the CA's badNonce.\n"
        text += "# TYPE biqli_acme_bad_nonce_retries_total counter\n"
        text += "biqli_acme_bad_nonce_retries_total \(manager.badNonceRetries)\n"
        return text
    }
}
