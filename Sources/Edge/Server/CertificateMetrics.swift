import HTTP

/// `/metrics` about each configured domain's certificate: the seconds until the one
/// serving it (by name, whatever its source) expires, and with ACME the orders' outcomes.
enum CertificateMetrics {
    static func text(domains: [String], certificates: CertificateSet, acme: CertificateAutomation?, now: Int64)
        -> String
    {
        var text = "# HELP biqli_certificate_expiry_seconds Seconds until the certificate serving the domain expires "
        text += "(negative: expired); a domain without one is absent.\n"
        text += "# TYPE biqli_certificate_expiry_seconds gauge\n"
        for host in domains.sorted() {
            // Hostnames are DNS names (HostnameRule): nothing to escape in the label.
            guard let notAfter = certificates.namedExpiry(of: host) else { continue }
            text += "biqli_certificate_expiry_seconds{domain=\"\(host)\"} \(notAfter - now / 1_000)\n"
        }
        if let acme { text += acme.metricsText }
        return text
    }
}
