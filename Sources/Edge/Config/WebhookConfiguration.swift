import Model

/// The `BIQLI_EDGE_WEBHOOK_*` settings (decision 0028).
struct WebhookConfiguration: Sendable {
    var threads = 4
    var timeoutSeconds = 10
    var schedule = WebhookRetrySchedule()
    var allowPrivate = false
    var allowHTTP = false
    var caRoots: String? = nil
}

extension EdgeConfiguration {
    static let webhookSettings: [Setting] = [
        Setting(variable: "BIQLI_EDGE_WEBHOOK_THREADS", help: "webhook delivery threads (4)") {
            c, v throws(ConfigurationError) in
            c.webhooks.threads = try parseInt(v, "BIQLI_EDGE_WEBHOOK_THREADS", 1...64)
        },
        Setting(
            variable: "BIQLI_EDGE_WEBHOOK_TIMEOUT_SECONDS",
            help: "a webhook attempt's connect and whole exchange give up after this (10)"
        ) {
            c, v throws(ConfigurationError) in
            c.webhooks.timeoutSeconds = try parseInt(v, "BIQLI_EDGE_WEBHOOK_TIMEOUT_SECONDS", 1...60)
        },
        Setting(
            variable: "BIQLI_EDGE_WEBHOOK_RETRY_DELAYS",
            help: "seconds between a webhook's failed attempts, comma-separated (5,300,1800,7200,...: 3 days)"
        ) {
            c, v throws(ConfigurationError) in
            guard let schedule = WebhookRetrySchedule(parsing: v) else {
                throw .invalid(
                    "BIQLI_EDGE_WEBHOOK_RETRY_DELAYS", v,
                    "must be 1 to \(WebhookRetrySchedule.maxDelays) whole numbers of seconds from 1 to 86400, comma-separated"
                )
            }
            c.webhooks.schedule = schedule
        },
        Setting(
            variable: "BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE",
            help: "on: webhooks may reach loopback, private and other non-public addresses (tests, private set-ups)"
        ) {
            c, v throws(ConfigurationError) in
            c.webhooks.allowPrivate = try parseSwitch(v, "BIQLI_EDGE_WEBHOOK_ALLOW_PRIVATE")
        },
        Setting(variable: "BIQLI_EDGE_WEBHOOK_ALLOW_HTTP", help: "on: webhook endpoints may be plain http:// URLs") {
            c, v throws(ConfigurationError) in
            c.webhooks.allowHTTP = try parseSwitch(v, "BIQLI_EDGE_WEBHOOK_ALLOW_HTTP")
        },
        Setting(
            variable: "BIQLI_EDGE_WEBHOOK_CA_ROOTS",
            help: "PEM file of the roots webhook receivers' certificates are checked with; default: the system's"
        ) {
            c, v throws(ConfigurationError) in c.webhooks.caRoots = v.isEmpty ? nil : v
        },
    ]
}
