/// How many `webhook.test` events an endpoint may be sent (issue 33 item 8): each is a
/// request to the endpoint's URL, which may be a third party's, so a key with
/// `webhooks.write` (or an operator's console) must not be able to aim a stream of them.
///
/// At most `perWindow` in any `windowMilliseconds`, counted from the outbox itself (the
/// test events' creation times, through a partial index), so the whole fleet and the API
/// and the console share one count, and a restart forgets nothing.
public enum WebhookTestLimit {
    public static let perWindow = 5
    public static let windowMilliseconds: Int64 = 60_000

    /// Seconds until one more test may be sent (at least 1), or nil when one may be now.
    /// `times`: the creation times of the endpoint's test events since `now - window`.
    public static func retryAfterSeconds(times: [Int64], now: Int64) -> Int? {
        let recent = times.filter { $0 > now - windowMilliseconds }.sorted()
        guard recent.count >= perWindow else { return nil }
        // The test that must leave the window for one more to fit in it.
        let leaves = recent[recent.count - perWindow] + windowMilliseconds
        return max(1, Int((leaves - now + 999) / 1_000))
    }
}
