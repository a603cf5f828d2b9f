import HTTPMessages
import Model
import Templates

/// `GET /console/webhooks`: every webhook endpoint, its events and its state (decision
/// 0028). Endpoints are made through the API; their secrets are never shown here.
enum WebhooksPage {
    static func state(_ e: WebhookEndpoint) -> HTML {
        if e.enabled {
            return e.failingSince == nil
                ? "<span class=\"status-enabled\">Enabled</span>"
                : "<span class=\"status-enabled\">Enabled</span>, failing since \(Format.time(e.failingSince ?? 0))"
        }
        return "<span class=\"status-disabled\">Disabled</span>: \(e.disabledReason ?? "")"
    }

    static func render(_ endpoints: [WebhookEndpoint], csrf: String) -> HTTPResponse {
        let rows: [HTML] = endpoints.map { e in
            """
            <tr data-webhook-id="\(e.id)"><th scope="row"><a href="\(ConsolePaths.webhook(e.id))">\(e.url)</a></th>\
            <td>\(e.eventTypes.map(\.rawValue).joined(separator: ", "))</td><td>\(state(e))</td></tr>
            """
        }
        let body =
            rows.isEmpty
            ? Tables.empty(
                "webhooks-empty", columns: 3,
                "There is no webhook endpoint yet: create one with the API (POST /api/v1/webhooks).")
            : HTML.join(rows)
        let main: HTML = """
            <h1>Webhooks</h1>
            <table id="webhooks"><caption>Webhook endpoints</caption>
            <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
        return ConsoleLayout.page(title: "Webhooks", section: .webhooks, csrf: csrf, main: main)
    }
}

/// `GET /console/webhooks/{id}`: one endpoint, its newest deliveries and their attempts
/// (time, duration, status, error, and the answer's first bytes, escaped as any text),
/// and a button that sends a test event.
enum WebhookPage {
    static let deliveries = 20

    static func render(
        _ e: WebhookEndpoint, deliveries: [(WebhookDelivery, [WebhookAttempt])], sent: WebhookDelivery? = nil,
        csrf: String
    ) -> HTTPResponse {
        let notice: HTML =
            sent.map { d in
                "<p class=\"notice\" id=\"webhook-test-sent\" role=\"status\">Test event \(d.messageId) queued.</p>"
            }
            ?? ""
        let rows: [HTML] = deliveries.map { d, attempts in
            let tries: [HTML] = attempts.map { a in
                let status = a.status.map { String($0) } ?? "none"
                return """
                    <li>\(Format.time(a.at)): \(status), \(Int(a.durationMilliseconds)) ms\
                    \(a.error.map { ", " + $0 } ?? "")\(a.answer.map { " <code class=\"answer\">\($0)</code>" as HTML } ?? "")</li>
                    """
            }
            return """
                <tr data-delivery-id="\(d.messageId)"><th scope="row"><code>\(d.messageId)</code></th>\
                <td>\(d.type.rawValue)</td><td>\(d.state.rawValue)</td><td>\(Format.time(d.createdAt))</td>\
                <td><ol class="attempts">\(tries)</ol></td></tr>
                """
        }
        let body =
            rows.isEmpty
            ? Tables.empty("deliveries-empty", columns: 5, "Nothing was sent to this endpoint yet.") : HTML.join(rows)
        let main: HTML = """
            <h1>Webhook endpoint</h1>
            \(notice)
            <dl class="facts"><dt>URL</dt><dd>\(e.url)</dd><dt>ID</dt><dd><code>\(e.id)</code></dd>\
            <dt>Events</dt><dd>\(e.eventTypes.map(\.rawValue).joined(separator: ", "))</dd>\
            <dt>Status</dt><dd id="webhook-state">\(WebhooksPage.state(e))</dd>\
            <dt>Secret</dt><dd>\(WebhookSecret.hint(e.secret))</dd></dl>
            <form method="post" action="\(ConsolePaths.testWebhook(e.id))" class="actions">\
            <input type="hidden" name="csrf" value="\(csrf)">\
            <button type="submit" id="send-test">Send a test event</button></form>
            <table id="deliveries"><caption>Newest deliveries</caption>
            <thead><tr><th scope="col">ID (webhook-id)</th><th scope="col">Event</th><th scope="col">State</th>\
            <th scope="col">Created</th><th scope="col">Attempts</th></tr></thead>
            <tbody>\(body)</tbody></table>
            """
        return ConsoleLayout.page(title: "Webhook endpoint", section: .webhooks, csrf: csrf, main: main)
    }
}
