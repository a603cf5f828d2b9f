import Model

/// The click counts of the writer's current batch, before they reach `click_counts`.
///
/// Analytics count clicks per app, UTC hour, platform and kind. Rather than
/// maintaining an index on the clicks (one more B-tree insert per click), the
/// writer adds each click here and writes the sums once per batch, one UPSERT
/// per distinct key: a batch of hundreds of visits usually touches two or three
/// keys. Not thread-safe: the writer's transaction owns it.
///
/// Pending counts are part of the batch: the writer drops them with a rolled-back
/// pass and restores the copy taken before a job whose savepoint rolled back. The
/// per-link daily counts (`links`) live inside, so that they go and come back with them.
struct ClickCounter: Equatable {
    static let hourMilliseconds: Int64 = 3_600_000

    struct Key: Equatable {
        var appId: String
        var hour: Int64
        var platform: VisitorPlatform
        var kind: ClickKind
    }

    private(set) var entries: [(key: Key, count: Int)] = []
    /// The batch's per-link daily counts of clicks and opens.
    var links = LinkCounter()

    /// No app count and no link count pending.
    var isEmpty: Bool { entries.isEmpty && links.isEmpty }

    /// The hour (since the epoch, UTC) that holds `milliseconds`; floors negative times too.
    static func hour(_ milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / hourMilliseconds : (milliseconds + 1) / hourMilliseconds - 1
    }

    mutating func add(appId: String, at: Int64, platform: VisitorPlatform, kind: ClickKind) {
        let hour = Self.hour(at)
        // A handful of keys per batch, the latest one most likely: a linear search from the end.
        var i = entries.count - 1
        while i >= 0 {
            let key = entries[i].key
            if key.hour == hour && key.platform == platform && key.kind == kind && key.appId == appId {
                entries[i].count += 1
                return
            }
            i -= 1
        }
        entries.append((Key(appId: appId, hour: hour, platform: platform, kind: kind), 1))
    }

    /// A click: its link's daily count always, its app's hourly count when it has an app.
    mutating func add(_ click: Click) {
        links.addClick(
            linkId: click.linkId, at: click.at, platform: click.platform, kind: click.kind,
            inAppBrowser: click.inAppBrowser, country: click.country, referrer: click.referrer,
            variant: click.variant)
        if let appId = click.appId { add(appId: appId, at: click.at, platform: click.platform, kind: click.kind) }
    }

    /// A preview bot's visit (no click row): its link's daily count, and its app's when it has one.
    mutating func addPreview(appId: String?, linkId: String, platform: VisitorPlatform, at: Int64) {
        links.addClick(linkId: linkId, at: at, platform: platform, kind: .previewBot, inAppBrowser: nil, country: nil)
        if let appId { add(appId: appId, at: at, platform: platform, kind: .previewBot) }
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        links.removeAll()
    }

    static func == (a: ClickCounter, b: ClickCounter) -> Bool {
        a.entries.elementsEqual(b.entries) { $0.key == $1.key && $0.count == $1.count } && a.links == b.links
    }
}
