import HTTPMessages

/// `GET /console/`.
extension Console {
    /// The last count at once; before the first one, the page waits for it (on the
    /// background thread, which then answers).
    func overviewPage(csrf: String, client: ConsoleClient) -> ConsoleAnswer {
        let refresh = configuration.overviewRefreshSeconds
        let box = DeferredBox()
        let snapshot = overview.snapshot { counted in
            box.deliver(
                counted.map { OverviewPage.render($0, refreshSeconds: refresh, csrf: csrf) }
                    ?? OverviewPage.counting(csrf: csrf))
        }
        if let snapshot { return .response(OverviewPage.render(snapshot, refreshSeconds: refresh, csrf: csrf)) }
        return .deferred { respond in box.wait(respond) }
    }
}
