import Core
import HTTPMessages
import Model
import Store

/// `GET /console/domains`.
extension Console {
    /// On the background thread: the checks read every app link's claim of every domain
    /// (what `biqli-edge check` reads), which a loop must not wait for.
    func domainsPage(csrf: String) -> ConsoleAnswer {
        let environment = self.environment
        let worker = self.worker
        return .deferred { respond in
            worker.submit { reader in
                do {
                    let domains = try reader.domains()
                    var certificates: [String: CertificateStatus] = [:]
                    for domain in domains { certificates[domain.hostname] = environment.certificate(domain.hostname) }
                    var findings: [DomainFinding] = []
                    var failure: String?
                    do {
                        findings = try environment.domainFindings(reader)
                    } catch {
                        failure = "\(error)"
                    }
                    let model = DomainsPage.Model(
                        domains: domains, certificates: certificates, findings: findings, dns: environment.dns(),
                        checkFailure: failure)
                    respond(DomainsPage.render(model, csrf: csrf))
                } catch {
                    environment.log.error("console request failed", [("detail", .string("\(error)"))])
                    respond(MessagePage.failure(csrf: csrf))
                }
            }
        }
    }
}
