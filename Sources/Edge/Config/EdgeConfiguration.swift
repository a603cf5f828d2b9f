import Certificates
import Core
import HTTP
import HTTPMessages
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Every setting of the edge, from a JSON file and/or `BIQLI_EDGE_*` variables
/// (the environment wins). Each setting has one name in both places: the variable
/// `BIQLI_EDGE_HTTP_ADDR` is the file key `httpAddr`.
struct EdgeConfiguration: Sendable {
    var httpAddress: HTTPServerConfiguration.Address? = .init(host: "0.0.0.0", port: 8080)
    var httpsAddress: HTTPServerConfiguration.Address? = .init(host: "0.0.0.0", port: 8443)
    var metricsAddress: HTTPServerConfiguration.Address? = nil
    /// `BIQLI_EDGE_CONSOLE_ADDR`: the operator console's listener; nil (`off`) disables it.
    var consoleAddress: HTTPServerConfiguration.Address? = .init(host: "127.0.0.1", port: 8091)
    /// `BIQLI_EDGE_CONSOLE_SESSION_HOURS`: how long a console sign-in lasts.
    var consoleSessionHours = 12
    var dataDirectory = "./data"
    /// Nil means `<dataDirectory>/certs`.
    var certificateDirectoryOverride: String? = nil
    var publicURL = "https://localhost:8443"
    var httpsRedirect = true
    var trustedProxies: [CIDR] = []
    /// `BIQLI_EDGE_GEOIP_DB`: a MaxMind DB file giving clicks their country; nil: none.
    var geoIPDatabase: String? = nil
    var proxyProtocol: ProxyProtocolMode = .off
    var loops = EdgeConfiguration.coreCount()
    var logLevel: LogLevel = .info
    var accessLog = true
    var maxConnections = 10_000
    /// Days clicks and open events are kept.
    var retentionDays = 90
    /// Directory of operator language files (`<lang>.json`) for the pages.
    var languagesDirectory: String? = nil
    var rateLimits = RateLimitSettings()
    var timeouts = HTTPTimeouts()
    var shutdownGraceMilliseconds = 10_000
    /// How long a write waits for a lock another process holds on the database (an
    /// operator's `sqlite3` session, a second edge on the same file) before it fails.
    var storeLockWaitMilliseconds = 5_000
    /// `BIQLI_EDGE_DATABASE_URL`: PostgreSQL instead of the SQLite file (nil).
    var database: PGConnectionSettings? = nil
    /// How long a receipt signing key signs before a new one takes over (30 days).
    var signingKeyRotationSeconds: Int64 = 30 * 86_400
    /// `BIQLI_EDGE_NODE`: this process's name in logs, metrics and `nodes`.
    var node = NodeName.hostDefault()
    /// `BIQLI_EDGE_ACME`: order and renew certificates for the configured domains.
    var acme = ACMEConfiguration()
    /// `BIQLI_EDGE_WEBHOOK_*`: outgoing webhooks' delivery (decision 0028).
    var webhooks = WebhookConfiguration()
    /// `BIQLI_EDGE_TEST_EXTRA_MIGRATION`, the black-box tests' rolling-upgrade hook
    /// (`PGTestMigration`): environment only, in no help text or file.
    var testMigration: PGTestMigration? = nil
    /// `BIQLI_EDGE_TEST_CLOCK_BACK_MS`: the wall clock set back (tests only; nil: the real one).
    var testClockBackMilliseconds: Int64? = nil

    var certificateDirectory: String { certificateDirectoryOverride ?? dataDirectory + "/certs" }
    var databasePath: String { dataDirectory + "/edge.sqlite3" }

    struct RateLimitSettings: Sendable, Equatable {
        var perApp = 3_000
        var perAddress = 120
        var perInstance = 30
        var perToken = 20
        var invalidPerAddress = 10
        var clickPerAddress = 120
        var clickPerKey = 6_000
        var conversionsPerKey = 6_000
    }

    /// One setting: its environment name, its file key and how to apply a text value.
    struct Setting: Sendable {
        let variable: String
        let help: String
        let apply: @Sendable (inout EdgeConfiguration, String) throws(ConfigurationError) -> Void

        var fileKey: String {
            let words = variable.dropFirst("BIQLI_EDGE_".count).lowercased().split(separator: "_")
            return words.enumerated().map { i, w in i == 0 ? String(w) : w.prefix(1).uppercased() + w.dropFirst() }
                .joined()
        }
    }

    static let settings: [Setting] = generalSettings + webhookSettings

    static let generalSettings: [Setting] = [
        Setting(variable: "BIQLI_EDGE_HTTP_ADDR", help: "plain-HTTP listener host:port; empty disables") {
            c, v throws(ConfigurationError) in c.httpAddress = try parseAddress(v, "BIQLI_EDGE_HTTP_ADDR")
        },
        Setting(variable: "BIQLI_EDGE_HTTPS_ADDR", help: "HTTPS listener host:port; empty disables") {
            c, v throws(ConfigurationError) in c.httpsAddress = try parseAddress(v, "BIQLI_EDGE_HTTPS_ADDR")
        },
        Setting(variable: "BIQLI_EDGE_METRICS_ADDR", help: "separate /metrics listener host:port; empty: loopback only")
        {
            c, v throws(ConfigurationError) in c.metricsAddress = try parseAddress(v, "BIQLI_EDGE_METRICS_ADDR")
        },
        Setting(
            variable: "BIQLI_EDGE_CONSOLE_ADDR",
            help: "operator console listener host:port (plain HTTP, /console/); off (or empty) disables"
        ) {
            c, v throws(ConfigurationError) in
            c.consoleAddress = v.lowercased() == "off" ? nil : try parseAddress(v, "BIQLI_EDGE_CONSOLE_ADDR")
        },
        Setting(variable: "BIQLI_EDGE_CONSOLE_SESSION_HOURS", help: "hours a console sign-in lasts") {
            c, v throws(ConfigurationError) in
            c.consoleSessionHours = try parseInt(v, "BIQLI_EDGE_CONSOLE_SESSION_HOURS", 1...720)
        },
        Setting(variable: "BIQLI_EDGE_DATA_DIR", help: "SQLite file and generated secrets") {
            c, v throws(ConfigurationError) in
            guard !v.isEmpty else { throw .invalid("BIQLI_EDGE_DATA_DIR", v, "must not be empty") }
            c.dataDirectory = v
        },
        Setting(variable: "BIQLI_EDGE_CERT_DIR", help: "certificates, one <hostname>.pem per host") {
            c, v throws(ConfigurationError) in c.certificateDirectoryOverride = v.isEmpty ? nil : v
        },
        Setting(variable: "BIQLI_EDGE_PUBLIC_URL", help: "public base URL of the API (receipt issuer, JWKS)") {
            c, v throws(ConfigurationError) in
            guard v.hasPrefix("https://") || v.hasPrefix("http://"), v.count > 8, !v.contains(" ") else {
                throw .invalid("BIQLI_EDGE_PUBLIC_URL", v, "must be an absolute http(s) URL")
            }
            c.publicURL = v.hasSuffix("/") ? String(v.dropLast()) : v
        },
        Setting(
            variable: "BIQLI_EDGE_HTTPS_REDIRECT", help: "on: 308 plain-HTTP visits to HTTPS; off behind a TLS proxy"
        ) {
            c, v throws(ConfigurationError) in c.httpsRedirect = try parseSwitch(v, "BIQLI_EDGE_HTTPS_REDIRECT")
        },
        Setting(
            variable: "BIQLI_EDGE_TRUSTED_PROXIES",
            help: "addresses/CIDRs whose X-Forwarded-For/-Proto and PROXY headers are believed"
        ) {
            c, v throws(ConfigurationError) in
            var list: [CIDR] = []
            for part in v.split(separator: ",") {
                let item = String(part.trimmingSpaces())
                guard let cidr = CIDR(item) else {
                    throw .invalid("BIQLI_EDGE_TRUSTED_PROXIES", item, "is not an address or CIDR")
                }
                list.append(cidr)
            }
            c.trustedProxies = list
        },
        Setting(
            variable: "BIQLI_EDGE_GEOIP_DB",
            help: "MaxMind or DB-IP .mmdb file: clicks keep the country code, never the address; reloaded on change"
        ) {
            c, v throws(ConfigurationError) in c.geoIPDatabase = v.isEmpty ? nil : v
        },
        Setting(
            variable: "BIQLI_EDGE_PROXY_PROTOCOL",
            help: "off, on (trusted proxies must send a PROXY header) or optional (they may)"
        ) {
            c, v throws(ConfigurationError) in
            guard let mode = ProxyProtocolMode(rawValue: v.lowercased()) else {
                throw .invalid("BIQLI_EDGE_PROXY_PROTOCOL", v, "must be off, on or optional")
            }
            c.proxyProtocol = mode
        },
        Setting(variable: "BIQLI_EDGE_LOOPS", help: "event-loop threads") {
            c, v throws(ConfigurationError) in c.loops = try parseInt(v, "BIQLI_EDGE_LOOPS", 1...256)
        },
        Setting(variable: "BIQLI_EDGE_LOG", help: "debug, info, warn or error; JSON lines on stdout") {
            c, v throws(ConfigurationError) in
            guard let level = LogLevel(rawValue: v.lowercased()) else {
                throw .invalid("BIQLI_EDGE_LOG", v, "must be debug, info, warn or error")
            }
            c.logLevel = level
        },
        Setting(
            variable: "BIQLI_EDGE_NODE", help: "this edge's name in logs, /metrics and `nodes`; default: the host name"
        ) {
            c, v throws(ConfigurationError) in
            guard NodeName.isValid(v) else {
                throw .invalid("BIQLI_EDGE_NODE", v, "must be 1 to 64 characters of A-Z a-z 0-9 . _ -")
            }
            c.node = v
        },
        Setting(variable: "BIQLI_EDGE_ACCESS_LOG", help: "on/off: one JSON line per request") {
            c, v throws(ConfigurationError) in c.accessLog = try parseSwitch(v, "BIQLI_EDGE_ACCESS_LOG")
        },
        Setting(variable: "BIQLI_EDGE_MAX_CONNECTIONS", help: "open connections before accepting pauses") {
            c, v throws(ConfigurationError) in
            c.maxConnections = try parseInt(v, "BIQLI_EDGE_MAX_CONNECTIONS", 1...1_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RETENTION_DAYS", help: "days clicks and open events are kept") {
            c, v throws(ConfigurationError) in c.retentionDays = try parseInt(v, "BIQLI_EDGE_RETENTION_DAYS", 1...3650)
        },
        Setting(variable: "BIQLI_EDGE_LANGUAGES_DIR", help: "operator page translations, <lang>.json") {
            c, v throws(ConfigurationError) in c.languagesDirectory = v.isEmpty ? nil : v
        },
        Setting(variable: "BIQLI_EDGE_RATE_PER_APP", help: "resolver requests per minute per Mobile App") {
            c, v throws(ConfigurationError) in
            c.rateLimits.perApp = try parseInt(v, "BIQLI_EDGE_RATE_PER_APP", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_PER_ADDRESS", help: "resolver requests per minute per source address") {
            c, v throws(ConfigurationError) in
            c.rateLimits.perAddress = try parseInt(v, "BIQLI_EDGE_RATE_PER_ADDRESS", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_PER_INSTANCE", help: "resolver requests per minute per app instance") {
            c, v throws(ConfigurationError) in
            c.rateLimits.perInstance = try parseInt(v, "BIQLI_EDGE_RATE_PER_INSTANCE", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_PER_TOKEN", help: "resolver requests per minute per handoff token") {
            c, v throws(ConfigurationError) in
            c.rateLimits.perToken = try parseInt(v, "BIQLI_EDGE_RATE_PER_TOKEN", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS", help: "invalid keys/tokens per minute per address") {
            c, v throws(ConfigurationError) in
            c.rateLimits.invalidPerAddress = try parseInt(v, "BIQLI_EDGE_RATE_INVALID_PER_ADDRESS", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_CLICK_PER_ADDRESS", help: "track/click calls per minute per source address")
        {
            c, v throws(ConfigurationError) in
            c.rateLimits.clickPerAddress = try parseInt(v, "BIQLI_EDGE_RATE_CLICK_PER_ADDRESS", 1...10_000_000)
        },
        Setting(variable: "BIQLI_EDGE_RATE_CLICK_PER_KEY", help: "track/click calls per minute per browser key") {
            c, v throws(ConfigurationError) in
            c.rateLimits.clickPerKey = try parseInt(v, "BIQLI_EDGE_RATE_CLICK_PER_KEY", 1...10_000_000)
        },
        Setting(
            variable: "BIQLI_EDGE_RATE_CONVERSIONS_PER_KEY",
            help: "track/lead and track/sale calls per minute per secret key"
        ) {
            c, v throws(ConfigurationError) in
            c.rateLimits.conversionsPerKey = try parseInt(v, "BIQLI_EDGE_RATE_CONVERSIONS_PER_KEY", 1...10_000_000)
        },
        Setting(
            variable: "BIQLI_EDGE_HEAD_TIMEOUT_MS", help: "a request head must arrive within this of its first byte"
        ) {
            c, v throws(ConfigurationError) in
            c.timeouts.headMilliseconds = try parseInt(v, "BIQLI_EDGE_HEAD_TIMEOUT_MS", 10...3_600_000)
        },
        Setting(variable: "BIQLI_EDGE_IDLE_TIMEOUT_MS", help: "keep-alive idle time between requests") {
            c, v throws(ConfigurationError) in
            c.timeouts.idleMilliseconds = try parseInt(v, "BIQLI_EDGE_IDLE_TIMEOUT_MS", 10...3_600_000)
        },
        Setting(variable: "BIQLI_EDGE_BODY_TIMEOUT_MS", help: "a request body must arrive within this of its head") {
            c, v throws(ConfigurationError) in
            c.timeouts.bodyMilliseconds = try parseInt(v, "BIQLI_EDGE_BODY_TIMEOUT_MS", 10...3_600_000)
        },
        Setting(
            variable: "BIQLI_EDGE_SHUTDOWN_GRACE_MS", help: "graceful shutdown waits this long for in-flight requests"
        ) {
            c, v throws(ConfigurationError) in
            c.shutdownGraceMilliseconds = try parseInt(v, "BIQLI_EDGE_SHUTDOWN_GRACE_MS", 0...600_000)
        },
        Setting(
            variable: "BIQLI_EDGE_STORE_LOCK_WAIT_MS",
            help: "a write waits this long for another process's database lock, then fails"
        ) {
            c, v throws(ConfigurationError) in
            c.storeLockWaitMilliseconds = try parseInt(v, "BIQLI_EDGE_STORE_LOCK_WAIT_MS", 0...60_000)
        },
        Setting(
            variable: "BIQLI_EDGE_SIGNING_KEY_ROTATION_SECONDS",
            help: "a receipt signing key signs this long, then a new one takes over (once for the fleet)"
        ) {
            c, v throws(ConfigurationError) in
            c.signingKeyRotationSeconds = Int64(
                try parseInt(v, "BIQLI_EDGE_SIGNING_KEY_ROTATION_SECONDS", 5...366 * 86_400))
        },
        Setting(
            variable: "BIQLI_EDGE_ACME",
            help: "on: order and renew certificates for the configured domains through ACME (off)"
        ) {
            c, v throws(ConfigurationError) in c.acme.enabled = try parseSwitch(v, "BIQLI_EDGE_ACME")
        },
        Setting(
            variable: "BIQLI_EDGE_ACME_DIRECTORY",
            help: "the CA's ACME directory URL; default Let's Encrypt production"
        ) {
            c, v throws(ConfigurationError) in
            guard v.lowercased().hasPrefix("https://"), v.count > 8, !v.contains(" ") else {
                throw .invalid("BIQLI_EDGE_ACME_DIRECTORY", v, "must be an https URL")
            }
            c.acme.directory = v
        },
        Setting(variable: "BIQLI_EDGE_ACME_EMAIL", help: "the ACME account's contact address (the CA's warnings)") {
            c, v throws(ConfigurationError) in
            if v.isEmpty {
                c.acme.email = nil
                return
            }
            guard v.contains("@"), !v.contains(" "), !v.contains(","), !v.lowercased().hasPrefix("mailto:") else {
                throw .invalid("BIQLI_EDGE_ACME_EMAIL", v, "must be an e-mail address")
            }
            c.acme.email = v
        },
        Setting(
            variable: "BIQLI_EDGE_ACME_EAB_KID", help: "external account binding: the CA's key id (ZeroSSL, Google)"
        ) {
            c, v throws(ConfigurationError) in c.acme.eabKeyID = v.isEmpty ? nil : v
        },
        Setting(
            variable: "BIQLI_EDGE_ACME_EAB_HMAC_KEY", help: "external account binding: the CA's MAC key, base64url"
        ) {
            c, v throws(ConfigurationError) in
            if v.isEmpty {
                c.acme.eabMACKey = nil
                return
            }
            // Never the value: it is a secret.
            guard let key = Base64URL.decode(v), !key.isEmpty else {
                throw .secret("BIQLI_EDGE_ACME_EAB_HMAC_KEY", "must be base64url (as the CA gives it)")
            }
            c.acme.eabMACKey = key
        },
        Setting(
            variable: "BIQLI_EDGE_ACME_CA_ROOTS",
            help: "PEM file of the roots the CA's HTTPS is checked with (a private CA); default: the system's"
        ) {
            c, v throws(ConfigurationError) in c.acme.caRoots = v.isEmpty ? nil : v
        },
        Setting(
            variable: "BIQLI_EDGE_DATABASE_URL",
            help: "PostgreSQL (libpq connection string or postgresql:// URL) instead of SQLite; empty: SQLite"
        ) {
            c, v throws(ConfigurationError) in
            guard !v.isEmpty else {
                c.database = nil
                return
            }
            do throws(StoreError) {
                c.database = try PGConnectionSettings(v)
            } catch {
                // Never the value: it may hold the password.
                throw .secret("BIQLI_EDGE_DATABASE_URL", "\(error.safeMessage)")
            }
        },
    ]

    static let testMigrationVariable = "BIQLI_EDGE_TEST_EXTRA_MIGRATION"
    /// The black-box tests' first wait after a failed order, in milliseconds (environment
    /// only, in no help text or file): 5 minutes would make a test wait too long.
    static let testACMEBackoffVariable = "BIQLI_EDGE_TEST_ACME_BACKOFF_MS"
    /// Sets the edge's wall clock back, in milliseconds (environment only, in no help text
    /// or file; at most 366 days): the screenshot script's past traffic (decision 0026).
    static let testClockBackVariable = "BIQLI_EDGE_TEST_CLOCK_BACK_MS"
    static let testClockBackRange = 0...31_622_400_000

    /// Applies the file (if any), then the environment.
    static func load(file: String?, environment: [String: String]) throws(ConfigurationError) -> EdgeConfiguration {
        var config = EdgeConfiguration()
        if let file {
            guard let text = readTextFile(file) else { throw .file(file, "cannot be read") }
            let json: JSONValue
            do { json = try JSONParser.parse(text) } catch { throw .file(file, "is not valid JSON (\(error))") }
            guard let members = json.objectValue else { throw .file(file, "must hold a JSON object") }
            for (key, value) in members {
                guard let setting = settings.first(where: { $0.fileKey == key }) else {
                    throw .file(file, "has an unknown key \"\(key)\"")
                }
                let text: String
                switch value {
                case .string(let s): text = s
                case .int(let i): text = String(i)
                case .bool(let b): text = b ? "on" : "off"
                case .null: text = ""
                case .array(let items): text = items.compactMap(\.stringValue).joined(separator: ",")
                default: throw .file(file, "key \"\(key)\" must be a string, number or boolean")
                }
                try setting.apply(&config, text)
            }
        }
        for setting in settings {
            if let value = environment[setting.variable] { try setting.apply(&config, value) }
        }
        if let hook = environment[testMigrationVariable], !hook.isEmpty {
            guard let migration = hook == "1" ? .additive : PGTestMigration(rawValue: hook) else {
                throw .invalid(testMigrationVariable, hook, "must be additive (or 1) or breaking (tests only)")
            }
            config.testMigration = migration
        }
        if let back = environment[testClockBackVariable], !back.isEmpty {
            config.testClockBackMilliseconds = Int64(try parseInt(back, testClockBackVariable, testClockBackRange))
        }
        if let wait = environment[testACMEBackoffVariable], !wait.isEmpty {
            config.acme.testBackoffMilliseconds = Int64(try parseInt(wait, testACMEBackoffVariable, 1...3_600_000))
        }
        if (config.acme.eabKeyID == nil) != (config.acme.eabMACKey == nil) {
            throw .invalid(
                "BIQLI_EDGE_ACME_EAB_KID", config.acme.eabKeyID ?? "",
                "and BIQLI_EDGE_ACME_EAB_HMAC_KEY go together: set both or neither")
        }
        if config.proxyProtocol != .off && config.trustedProxies.isEmpty {
            // Nobody could send a header: the operator forgot to name the balancers.
            throw .invalid(
                "BIQLI_EDGE_PROXY_PROTOCOL", config.proxyProtocol.rawValue,
                "needs BIQLI_EDGE_TRUSTED_PROXIES: the load balancers allowed to send a PROXY header")
        }
        return config
    }

    static func coreCount() -> Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private static func parseAddress(_ v: String, _ name: String) throws(ConfigurationError) -> HTTPServerConfiguration
        .Address?
    {
        if v.isEmpty { return nil }
        guard let a = HTTPServerConfiguration.Address(parsing: v) else {
            throw .invalid(name, v, "must be host:port (for example 0.0.0.0:8080 or [::1]:8443)")
        }
        return a
    }

    static func parseSwitch(_ v: String, _ name: String) throws(ConfigurationError) -> Bool {
        switch v.lowercased() {
        case "on", "true", "1", "yes": return true
        case "off", "false", "0", "no": return false
        default: throw .invalid(name, v, "must be on or off")
        }
    }

    static func parseInt(_ v: String, _ name: String, _ range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        guard let n = Int(v), range.contains(n) else {
            throw .invalid(name, v, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}

/// The `BIQLI_EDGE_ACME*` settings.
struct ACMEConfiguration: Sendable {
    var enabled = false
    var directory = ACMESettings.letsEncrypt
    var email: String? = nil
    var eabKeyID: String? = nil
    /// Decoded. A secret: never logged.
    var eabMACKey: [UInt8]? = nil
    var caRoots: String? = nil
    /// `BIQLI_EDGE_TEST_ACME_BACKOFF_MS` (tests only).
    var testBackoffMilliseconds: Int64? = nil
}

/// A bad setting: one line naming it; the CLI exits with status 2.
enum ConfigurationError: Error, Equatable, CustomStringConvertible {
    case invalid(String, String, String)
    /// A setting whose value is never shown (it may hold a password).
    case secret(String, String)
    case file(String, String)

    var description: String {
        switch self {
        case .invalid(let name, let value, let rule): return "\(name)=\"\(value)\" \(rule)"
        case .secret(let name, let problem): return "\(name): \(problem)"
        case .file(let path, let problem): return "configuration file \(path) \(problem)"
        }
    }
}
