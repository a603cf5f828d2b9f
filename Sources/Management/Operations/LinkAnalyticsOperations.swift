import Core
import Model
import Store

/// `GET /api/v1/links/{id}/analytics?days=N`: a link's clicks and opens over the last N
/// UTC days, today included, from the store's per-link daily counts, so that a link's
/// page costs the same with ten million clicks as with ten. The operator console reads
/// the same report (`WorkspaceOperations.linkAnalytics`).
enum LinkAnalyticsOperations {
    static let defaultDays = 30
    static let dayRange = 1...MobileAppOperations.maxAnalyticsDays

    static func analytics(
        _ call: ManagementCall, _ reader: any LinkReading & AnalyticsReading, _ env: ManagementEnvironment
    ) throws
        -> ManagementAnswer
    {
        let link = try LinkOperations.existing(call.parameter("id"), reader)
        let days = try call.query.integer("days", in: dayRange, default: defaultDays)
        let report = try self.report(link: link.id, days: days, now: call.now, reader)
        return ManagementAnswer(200, LinkAnalyticsJSON.render(link: link, report: report, now: call.now))
    }

    /// The last `days` UTC days of `link` up to the day of `now`, and the totals of the
    /// `days` days before them: one range read of 2N days of each count table.
    static func report(link: String, days: Int, now: Int64, _ reader: any AnalyticsReading) throws(StoreError)
        -> LinkAnalyticsReport
    {
        let today = LinkAnalytics.day(of: now)
        let first = today - Int64(days) + 1
        let counts = try reader.linkAnalytics(link: link, fromDay: first - Int64(days), throughDay: today)
        return LinkAnalyticsReport(firstDay: first, days: days, counts: counts)
    }
}
