/// One long-running part of the edge, as the lifecycle (`EdgeLifecycle`) sees it: its name,
/// the services it needs, and how it starts and stops (issue 34 item 4).
///
/// A service that `needs` another starts after it and stops before it: the store is
/// started first and closed last because every other part writes through it. Stopping has
/// two steps, as the server drains: `beginStopping` runs on every started service first
/// (the server stops accepting at once, without waiting for the parts stopped before it),
/// then `stop`, which waits for the service's work to end, in the reverse order of the starts.
struct EdgeService {
    /// Unique among the edge's services; what other services' `needs` name.
    let name: String
    /// Services that must have started before this one, and stop only after it.
    let needs: [String]
    var start: () throws(EdgeStartError) -> Void
    /// Must not wait: the other services' stops follow it.
    var beginStopping: () -> Void
    var stop: () -> Void

    init(
        _ name: String, needs: [String] = [], start: @escaping () throws(EdgeStartError) -> Void = {},
        beginStopping: @escaping () -> Void = {}, stop: @escaping () -> Void = {}
    ) {
        self.name = name
        self.needs = needs
        self.start = start
        self.beginStopping = beginStopping
        self.stop = stop
    }
}
