import Association
import Core
import GeoIP
import HTTP
import Model
import Store

#if canImport(Glibc)
import Glibc
#endif

/// The checks of `biqli-edge check`: configuration, data directory, certificates,
/// workspace keys, and the association documents of every domain (through
/// `AssociationChecker`, with the certificates actually on disk).
enum EdgeChecker {
    /// A certificate that ends within this many days is reported.
    static let expiryWarningDays = 14

    static func run(configFile: String?, environment: [String: String], now: Int64) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        let configuration: EdgeConfiguration
        do {
            configuration = try EdgeConfiguration.load(file: configFile, environment: environment)
        } catch {
            return [
                CheckFinding(
                    severity: .error, code: "config_invalid", subject: "configuration", message: "\(error)",
                    fix: "Correct the variable or file key named (see `biqli-edge serve --help` for each setting).")
            ]
        }
        findings.append(.ok("config_valid", "configuration", configurationSummary(configuration, configFile)))
        if let back = configuration.testClockBackMilliseconds, back > 0 {
            findings.append(
                CheckFinding(
                    severity: .error, code: "test_clock_on", subject: "configuration",
                    message:
                        "\(EdgeConfiguration.testClockBackVariable) sets the clock \(back) ms back: a test setting, "
                        + "refused by `serve` without --demo or with a real domain.",
                    fix: "Remove \(EdgeConfiguration.testClockBackVariable) from the service's environment."))
        }
        findings += checkListeners(configuration)
        findings += checkDataDirectory(configuration.dataDirectory)
        findings += checkSecretFileModes(configuration)
        findings += checkGeoIP(configuration)
        let certificates = CertificateSet.load(
            directory: fileExists(configuration.certificateDirectory) ? configuration.certificateDirectory : nil)
        findings += checkCertificateFiles(configuration, certificates)
        if configuration.database == nil, !fileExists(configuration.databasePath) {
            findings.append(
                CheckFinding(
                    severity: .warning, code: "store_missing", subject: "store",
                    message: "There is no database at \(configuration.databasePath) yet, so no domain to check.",
                    fix: "Run `biqli-edge serve` (or `biqli-edge apply FILE.json`) once to create it."))
            return findings
        }
        let store: any Store
        do {
            // SQLite: the file's modes are reported above, not changed here.
            store = try StoreBackend.open(configuration, readers: 1, log: nil, checking: true).store
        } catch {
            findings.append(
                CheckFinding(
                    severity: .error, code: "store_unreadable", subject: "store", message: "\(error).",
                    fix: configuration.database == nil
                        ? "Check the file's permissions, or restore it from a backup."
                        : "Check BIQLI_EDGE_DATABASE_URL, that the PostgreSQL server runs and accepts this user."))
            return findings
        }
        defer { store.close() }
        do {
            let reader = store.reader(loop: 0)
            let domains = try reader.domains()
            var links: [String: [LinkClaim]] = [:]
            for domain in domains { links[domain.hostname] = try reader.linkClaims(domain: domain.hostname) }
            // Certificates ordered through ACME serve beside the directory's, as in `serve`.
            let ordered = try reader.storedCertificates()
            let served = CertificateSet.load(
                directory: certificates.directory,
                supplied: ordered.compactMap { row in
                    guard let chain = row.chainPEM, let key = row.keyPEM else { return nil }
                    return SuppliedCertificate(
                        hostname: row.hostname, pem: Array((chain + "\n" + key).utf8), version: "check")
                })
            findings += checkStore(
                domains: domains, apps: try reader.apps(), links: links, keys: try reader.secretKeys(),
                certificates: served, now: now,
                acme: Dictionary(ordered.map { ($0.hostname, $0) }, uniquingKeysWith: { a, _ in a }),
                acmeEnabled: configuration.acme.enabled)
            let endpoints = try reader.webhookEndpoints()
            findings += checkWebhooks(endpoints)
            let keys = WebhookKeyFile.path(dataDirectory: configuration.dataDirectory)
            findings += checkWebhookKeys(
                path: keys, file: Result { () throws(WebhookKeyFile.Failure) in try WebhookKeyFile.read(keys) },
                registered: try reader.webhookSecretKeyIds(), endpoints: endpoints)
        } catch {
            findings.append(
                CheckFinding(
                    severity: .error, code: "store_unreadable", subject: "store", message: "Reading failed: \(error).",
                    fix: "Check the database file; restore it from a backup if it is damaged."))
        }
        return findings
    }

    /// Before the store is opened (opening makes the database files private).
    static func checkSecretFileModes(_ configuration: EdgeConfiguration) -> [CheckFinding] {
        SecretFileModes.exposed(configuration).map { file in
            CheckFinding(
                severity: .warning, code: "secret_file_readable", subject: file.path,
                message:
                    "\(file.path) holds secrets (signing or private keys) and has mode \(SecretFileModes.octal(file.mode)): other local users can read it.",
                fix: "chmod 600 \(file.path) (serve does it for the database and <data>/secrets itself).")
        }
    }

    /// `BIQLI_EDGE_GEOIP_DB`, when set, must open: `serve` refuses to start otherwise.
    static func checkGeoIP(_ c: EdgeConfiguration) -> [CheckFinding] {
        guard let path = c.geoIPDatabase else { return [] }
        do throws(GeoIPError) {
            let db = try GeoIPDatabase(path: path)
            let built = Timestamp.format(seconds: Int64(db.buildEpoch)).prefix(10)
            return [.ok("geoip_valid", path, "a \(db.databaseType) database built on \(built)")]
        } catch {
            return [
                CheckFinding(
                    severity: .error, code: "geoip_unusable", subject: path, message: "\(error).",
                    fix: "Point BIQLI_EDGE_GEOIP_DB at a MaxMind or DB-IP .mmdb file, or leave it empty.")
            ]
        }
    }

    static func configurationSummary(_ c: EdgeConfiguration, _ file: String?) -> String {
        let http = c.httpAddress?.description ?? "off"
        let https = c.httpsAddress?.description ?? "off"
        return
            "valid (\(file.map { "file \($0) and " } ?? "")environment); HTTP \(http), HTTPS \(https), data \(c.dataDirectory), certificates \(c.certificateDirectory)"
    }

    static func checkListeners(_ c: EdgeConfiguration) -> [CheckFinding] {
        var out: [CheckFinding] = []
        if c.httpAddress == nil && c.httpsAddress == nil {
            out.append(
                CheckFinding(
                    severity: .error, code: "no_listener", subject: "configuration",
                    message: "Both BIQLI_EDGE_HTTP_ADDR and BIQLI_EDGE_HTTPS_ADDR are empty: nothing would listen.",
                    fix: "Set at least one of them (e.g. BIQLI_EDGE_HTTPS_ADDR=0.0.0.0:443)."))
        }
        if let console = c.consoleAddress, !ConsoleAccess.isLoopback(console.host) {
            out.append(
                CheckFinding(
                    severity: .warning, code: "console_not_loopback", subject: "configuration",
                    message:
                        "BIQLI_EDGE_CONSOLE_ADDR is \(console): the operator console speaks plain HTTP to whoever reaches that address.",
                    fix:
                        "Keep it on 127.0.0.1 (reach it through an SSH tunnel), or put a TLS terminator in front of it and list it in BIQLI_EDGE_TRUSTED_PROXIES."
                ))
        }
        if c.publicURL == EdgeConfiguration().publicURL {
            out.append(
                CheckFinding(
                    severity: .warning, code: "public_url_default", subject: "configuration",
                    message:
                        "BIQLI_EDGE_PUBLIC_URL is the default \(c.publicURL): attribution receipts name it as their issuer and JWKS location.",
                    fix: "Set BIQLI_EDGE_PUBLIC_URL to the public https URL of this edge."))
        }
        if let problem = SDKBaseURL.problem(publicURL: c.publicURL) {
            out.append(
                CheckFinding(
                    severity: .warning, code: "public_url_not_for_sdks", subject: "configuration",
                    message:
                        "BIQLI_EDGE_PUBLIC_URL is \(c.publicURL): the official SDKs cannot use \(SDKBaseURL.apiBase(publicURL: c.publicURL)) as their API base URL, because \(problem).",
                    fix:
                        "Serve HTTPS on port 443 (BIQLI_EDGE_HTTPS_ADDR=0.0.0.0:443, or a balancer's 443 in front) and set BIQLI_EDGE_PUBLIC_URL=https://<that host>; see \"Connecting the official SDKs\" in the README."
                ))
        }
        return out
    }

    static func checkDataDirectory(_ dir: String) -> [CheckFinding] {
        if fileExists(dir) {
            if access(dir, W_OK | X_OK) == 0 {
                return [.ok("data_dir_writable", "data directory", "\(dir) exists and is writable")]
            }
            return [
                CheckFinding(
                    severity: .error, code: "data_dir_not_writable", subject: "data directory",
                    message: "\(dir) is not writable by this user, so the edge cannot store clicks or changes.",
                    fix: "chown or chmod it for the user that runs biqli-edge, or set BIQLI_EDGE_DATA_DIR.")
            ]
        }
        var parent = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        while !parent.isEmpty && !fileExists(parent) {
            parent = parent.contains("/") ? String(parent[..<parent.lastIndex(of: "/")!]) : "."
        }
        if parent.isEmpty { parent = "/" }
        if access(parent, W_OK | X_OK) == 0 {
            return [.ok("data_dir_creatable", "data directory", "\(dir) does not exist yet; serve creates it")]
        }
        return [
            CheckFinding(
                severity: .error, code: "data_dir_not_writable", subject: "data directory",
                message: "\(dir) does not exist and \(parent) is not writable, so it cannot be created.",
                fix: "Create it for the user that runs biqli-edge, or set BIQLI_EDGE_DATA_DIR elsewhere.")
        ]
    }

    static func checkCertificateFiles(_ c: EdgeConfiguration, _ set: CertificateSet) -> [CheckFinding] {
        var out = set.problems.map { problem in
            CheckFinding(
                severity: .error, code: "certificate_unusable", subject: "certificates", message: problem + ".",
                fix: "Replace the file with a valid PEM (certificate chain, then its private key) and send SIGHUP.")
        }
        if set.hostnames.isEmpty {
            out.append(
                CheckFinding(
                    severity: c.httpsAddress == nil ? .ok : .warning, code: "certificates_none",
                    subject: "certificates",
                    message:
                        "No certificate in \(c.certificateDirectory); serve generates a self-signed one for localhost, which no phone trusts.",
                    fix: "Put one <hostname>.pem (chain and key) per domain in the certificate directory."))
        } else {
            out.append(
                .ok("certificates_loaded", "certificates", "loaded for " + set.hostnames.joined(separator: ", ")))
        }
        return out
    }

    /// The last ACME order of `host` failed: an error while nothing valid covers the
    /// host, a warning while its certificate still serves.
    static func acmeFinding(_ host: String, _ row: StoredCertificate?, covered: Bool, now: Int64) -> CheckFinding? {
        guard let row, let type = row.lastErrorType else { return nil }
        let next = row.nextAttemptAt.map { " The next attempt is at \(Timestamp.format(milliseconds: $0))." } ?? ""
        let detail = row.lastErrorDetail.map { $0.isEmpty ? "" : ": " + $0 } ?? ""
        return CheckFinding(
            severity: covered ? .warning : .error, code: "certificate_order_failed", subject: host,
            message: (covered
                ? "The certificate of \(host) still serves, but its last ACME order failed"
                : "No valid certificate covers \(host): its last ACME order failed")
                + " (\(row.failures) failure(s) in a row): \(type)\(detail).\(next)",
            fix:
                "Point \(host)'s DNS at this edge and let the CA reach port 80 (HTTP-01) or 443 (TLS-ALPN-01); the edge retries by itself with growing waits."
        )
    }

    static func checkStore(
        domains: [Domain], apps: [MobileApp], links: [String: [LinkClaim]], keys: [SecretKeyRecord],
        certificates: CertificateSet, now: Int64, acme: [String: StoredCertificate] = [:], acmeEnabled: Bool = false
    ) -> [CheckFinding] {
        var out: [CheckFinding] = []
        if !keys.contains(where: { $0.revokedAt == nil }) {
            out.append(
                CheckFinding(
                    severity: .warning, code: "no_workspace_key", subject: "workspace keys",
                    message: "No usable workspace secret key: the workspace API refuses every request.",
                    fix: "Create one with `biqli-edge keys create --name NAME`."))
        }
        var active: Set<String> = []
        for domain in domains {
            let host = domain.hostname
            let ordered = acme[host]
            guard certificates.covers(host) else {
                if let finding = acmeFinding(host, ordered, covered: false, now: now) {
                    out.append(finding)
                    continue
                }
                if acmeEnabled {
                    out.append(
                        CheckFinding(
                            severity: .warning, code: "certificate_pending", subject: host,
                            message: "No valid certificate covers \(host) yet; the edge orders one through ACME.",
                            fix:
                                "Make sure \(host) resolves to this edge and ports 80 (HTTP-01) or 443 (TLS-ALPN-01) reach it; `serve` logs each order."
                        ))
                    continue
                }
                out.append(
                    CheckFinding(
                        severity: .error, code: "certificate_missing", subject: host,
                        message:
                            "No valid, unexpired certificate covers \(host): HTTPS visits fail and Apple and Google cannot fetch its association files.",
                        fix:
                            "Put \(host).pem (certificate chain, then its private key) in the certificate directory and send SIGHUP."
                    ))
                continue
            }
            active.insert(host)
            if let end = certificates.expiry(of: host) {
                let days = (end * 1_000 - now) / 86_400_000
                if days < Int64(expiryWarningDays) {
                    out.append(
                        CheckFinding(
                            severity: .warning, code: "certificate_expiring", subject: host,
                            message:
                                "The certificate of \(host) expires on \(Timestamp.format(seconds: end)), in \(days) day(s).",
                            fix: "Renew it and replace \(host).pem; the edge reloads it on change or SIGHUP."))
                    continue
                }
            }
            if let finding = acmeFinding(host, ordered, covered: true, now: now) {
                out.append(finding)
                continue
            }
            out.append(.ok("certificate_valid", host, "certificate valid"))
        }
        // Certificates were reported above, per domain.
        let problems = AssociationChecker.check(
            apps: apps, domains: domains, links: links, httpsActiveHosts: active
        ).filter {
            $0.code != .httpsInactive
        }
        out += problems.map(CheckFinding.init)
        if problems.isEmpty && !domains.isEmpty {
            out.append(
                .ok("association_valid", "association", "documents of \(domains.count) domain(s) are valid"))
        }
        return out
    }
}
