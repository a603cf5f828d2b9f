import Core
import Model
import Store

/// `GET /api/v1/links/{id}/analytics?days=N`: a link's clicks and opens over the last N
/// UTC days, today included, from the store's per-link daily counts, so that a link's
/// page costs the same with ten million clicks as with ten. The operator console reads
/// the same operation.
enum LinkAnalyticsOperations {
    static let defaultDays = 30

    static func analytics(_ call: ManagementCall, _ reader: any StoreReader, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let link = try LinkOperations.existing(call.parameter("id"), reader)
        let days = try call.query.integer("days", in: 1...MobileAppOperations.maxAnalyticsDays, default: defaultDays)
        let today = LinkAnalytics.day(of: call.now)
        let first = today - Int64(days) + 1
        let counts = try reader.linkAnalytics(link: link.id, fromDay: first, throughDay: today)
        return ManagementAnswer(
            200, LinkAnalyticsJSON.render(link: link, firstDay: first, days: days, now: call.now, counts: counts))
    }
}
