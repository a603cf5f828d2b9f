/// The reads of the counts: an app's (by whole UTC hours) and a link's (by UTC days),
/// from the aggregates the writer keeps once per batch.
public protocol AnalyticsReading: AnyObject {
    /// Click counts (including `countPreview`'s) by whole UTC hours: the hour that
    /// holds `since` counts in full. Opens are counted from `since` exactly;
    /// `recent` newest opens at or after `since`.
    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics

    /// Link `link`'s clicks and opens counted on the UTC days `fromDay...throughDay` (days
    /// since the epoch, `LinkAnalytics.day(of:)`), from the per-link daily counts: the cost
    /// depends on the days and the distinct values, not on the number of clicks.
    func linkAnalytics(link: String, fromDay: Int64, throughDay: Int64) throws(StoreError) -> LinkAnalytics
}
