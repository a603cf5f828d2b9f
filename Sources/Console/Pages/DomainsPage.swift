import HTTPMessages
import Model
import Templates

/// `GET /console/domains`: each domain with the certificate that serves it now, what
/// `biqli-edge check` finds about it (and about the apps), and what its DNS must say.
enum DomainsPage {
    struct Model {
        var domains: [Domain]
        var certificates: [String: CertificateStatus]
        var findings: [DomainFinding]
        var dns: DNSTarget
        /// The checks failed to run: why.
        var checkFailure: String?
    }

    static func render(_ m: Model, csrf: String) -> HTTPResponse {
        let hosts = Set(m.domains.map(\.hostname))
        let sections: [HTML] = m.domains.map { domain in
            section(domain, m.certificates[domain.hostname], m.findings.filter { $0.subject == domain.hostname }, m.dns)
        }
        let others = m.findings.filter { !hosts.contains($0.subject) && $0.severity != "ok" }
        let otherList: HTML =
            others.isEmpty
            ? .empty : "<h2 id=\"other-findings\">Other findings of the check</h2>\n\(findingList(others))"
        let failure: HTML =
            m.checkFailure.map { "<p class=\"alert\" role=\"alert\">The checks could not run: \($0)</p>" } ?? .empty
        let main: HTML = """
            <h1>Domains</h1>
            <p>Each domain: the certificate the edge serves for it now, the association checks of \
            <code>biqli-edge check</code>, and what its DNS must say for visitors to reach this edge.</p>
            \(failure)
            \(m.domains.isEmpty ? "<p id=\"domains-empty\">There is no domain yet.</p>" as HTML : .empty)
            \(sections)
            \(otherList)
            """
        return ConsoleLayout.page(title: "Domains", section: .domains, csrf: csrf, main: main)
    }

    private static func section(_ d: Domain, _ c: CertificateStatus?, _ findings: [DomainFinding], _ dns: DNSTarget)
        -> HTML
    {
        let cert = c ?? CertificateStatus(status: "none", source: "none")
        let issuer: HTML = cert.issuer.map { "<dt>Issuer</dt><dd>\($0)</dd>" } ?? .empty
        let notAfter: HTML = cert.notAfter.map { "<dt>Valid until</dt><dd>\(Format.time($0))</dd>" } ?? .empty
        let problem: HTML = cert.problem.map { "<dt>Last problem</dt><dd>\($0)</dd>" } ?? .empty
        let checks: HTML = findings.isEmpty ? "<p>No finding.</p>" : findingList(findings)
        return """
            <section class="domain" id="domain-\(d.hostname)" aria-labelledby="domain-\(d.hostname)-title">
            <h2 id="domain-\(d.hostname)-title">\(d.hostname)</h2>
            <dl class="facts">
            <dt>Certificate</dt><dd class="certificate-status">\(cert.status) (\(cert.source))</dd>
            \(issuer)\(notAfter)\(problem)
            <dt>Deep View</dt><dd>\(d.deepViewEnabled ? "on" : "off")</dd>
            </dl>
            <h3>Checks</h3>
            \(checks)
            <h3>DNS</h3>
            \(dnsAdvice(d.hostname, dns))
            </section>
            """
    }

    private static func findingList(_ findings: [DomainFinding]) -> HTML {
        let items: [HTML] = findings.map { f in
            let fix: HTML = f.fix.map { " <span class=\"note\">\($0)</span>" } ?? .empty
            return """
                <li><span class="severity-\(f.severity)">\(label(f.severity))</span> <code>\(f.code)</code>: \
                \(f.message)\(fix)</li>
                """
        }
        return "<ul class=\"findings\">\(items)</ul>"
    }

    private static func label(_ severity: String) -> String {
        switch severity {
        case "ok": return "OK"
        case "warning": return "Warning"
        default: return "Error"
        }
    }

    private static func dnsAdvice(_ host: String, _ dns: DNSTarget) -> HTML {
        let target: HTML =
            dns.canonicalName.map {
                "<li><code>\(host). CNAME \($0).</code> (the host of this edge's public URL), or</li>"
            } ?? .empty
        let ports: String =
            [dns.httpsPort.map { "HTTPS on port \($0)" }, dns.httpPort.map { "HTTP on port \($0)" }].compactMap { $0 }
            .joined(separator: " and ")
        return """
            <ul>\(target)<li><code>\(host). A</code> and/or <code>AAAA</code> records with the public addresses \
            of the machines (or the load balancer) that run the edge.</li></ul>
            <p class="note">The edge listens for \(ports.isEmpty ? "nothing public" : ports); visitors' browsers, \
            Apple and Google must reach it on 443 and 80 at that name.</p>
            """
    }
}
