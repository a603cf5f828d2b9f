import Core
import Model
import Store

/// The request of one attempt, per Standard Webhooks (decision 0028): the stored body as
/// it is, signed with every secret the endpoint signs with at the attempt's time (`secrets`,
/// opened: `WebhookSecretKeeper.signingSecrets`).
enum WebhookRequest {
    static func headers(_ delivery: WebhookDelivery, secrets: [String], nowMilliseconds: Int64) -> [(String, String)] {
        let timestamp = nowMilliseconds / 1_000
        return [
            ("Content-Type", "application/json"),
            ("webhook-id", delivery.messageId),
            ("webhook-timestamp", String(timestamp)),
            (
                "webhook-signature",
                WebhookSignature.header(
                    secrets: secrets, id: delivery.messageId, timestamp: timestamp, body: delivery.body)
            ),
        ]
    }
}

/// What one attempt's answer (or failure) means for its delivery.
enum WebhookVerdict {
    /// `status`: the receiver's, nil without one; `retryAfter`: its `Retry-After` in
    /// milliseconds, honoured on 429 and 503 only.
    static func outcome(
        status: Int?, retryAfter: Int64?, delivery: WebhookDelivery, schedule: WebhookRetrySchedule, now: Int64,
        random: Double
    ) -> WebhookAttemptOutcome {
        if let status, (200..<300).contains(status) { return .delivered }
        let wish = status == 429 || status == 503 ? retryAfter : nil
        guard
            let at = schedule.next(
                afterAttempt: delivery.scheduledAttempts + 1, startedAt: delivery.scheduleStartedAt, now: now,
                retryAfter: wish, random: random)
        else { return .failed }
        return .retry(at: at)
    }

    /// The first bytes of an answer, as storable text (`StorableText`: invalid UTF-8 and
    /// NUL replaced).
    static func answerText(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        var text = StorableText.from(body, maxBytes: WebhookAttempt.keptAnswerBytes)
        // Each bad byte became 3 (U+FFFD): at most twice the bytes kept.
        if text.utf8.count > WebhookAttempt.keptAnswerBytes * 2 {
            text = String(text.prefix(WebhookAttempt.keptAnswerBytes))
        }
        return text
    }
}
