import Model
import Store

/// A link's daily counts, counted from the rows this store keeps (its clicks, open events
/// and leads and sales) rather than kept apart as the real stores' aggregates are: the
/// same answer for what it keeps (preview bots' visits, which it does not keep, aside),
/// checked by `VariantCountsContract`.
extension MemoryAccess {
    func linkAnalytics(link: String, fromDay: Int64, throughDay: Int64) throws(StoreError) -> LinkAnalytics {
        let days = fromDay...throughDay
        let clicks = s.clicks.values.filter { $0.linkId == link && days.contains(LinkAnalytics.day(of: $0.at)) }
        let opens = s.openEvents.values.filter { $0.linkId == link && days.contains(LinkAnalytics.day(of: $0.at)) }
        let events = s.conversions.values.filter {
            $0.linkId == link && days.contains(LinkAnalytics.day(of: $0.occurredAt))
        }
        func tally<Key: Hashable>(_ keys: [Key]) -> [(key: Key, count: Int)] {
            var counts: [Key: Int] = [:]
            for k in keys { counts[k, default: 0] += 1 }
            return counts.map { (key: $0.key, count: $0.value) }
        }
        struct ClickKey: Hashable {
            var day: Int64, platform: String, kind: String, browser: String
        }
        let clickRows = tally(
            clicks.map {
                ClickKey(
                    day: LinkAnalytics.day(of: $0.at), platform: $0.platform.rawValue, kind: $0.kind.rawValue,
                    browser: $0.inAppBrowser ?? "")
            }
        ).sorted {
            ($0.key.day, $0.key.platform, $0.key.kind, $0.key.browser)
                < ($1.key.day, $1.key.platform, $1.key.kind, $1.key.browser)
        }.map {
            LinkAnalytics.ClickCount(
                day: $0.key.day, platform: VisitorPlatform(rawValue: $0.key.platform)!,
                kind: ClickKind(rawValue: $0.key.kind)!, inAppBrowser: $0.key.browser.isEmpty ? nil : $0.key.browser,
                count: $0.count)
        }
        struct DayText: Hashable {
            var day: Int64, text: String
        }
        let countries = tally(clicks.map { DayText(day: LinkAnalytics.day(of: $0.at), text: $0.country ?? "") })
            .sorted { ($0.key.day, $0.key.text) < ($1.key.day, $1.key.text) }
            .map {
                LinkAnalytics.CountryCount(
                    day: $0.key.day, country: $0.key.text.isEmpty ? nil : $0.key.text, count: $0.count)
            }
        let referrers = tally(
            clicks.compactMap { c in c.referrer.map { DayText(day: LinkAnalytics.day(of: c.at), text: $0) } }
        ).sorted { ($0.key.day, $0.key.text) < ($1.key.day, $1.key.text) }
            .map { LinkAnalytics.ReferrerCount(day: $0.key.day, referrer: $0.key.text, count: $0.count) }
        struct OpenKey: Hashable {
            var day: Int64, match: String, first: Int
        }
        let openRows = tally(
            opens.map {
                OpenKey(day: LinkAnalytics.day(of: $0.at), match: $0.matchedBy.rawValue, first: $0.firstOpen ? 1 : 0)
            }
        ).sorted { ($0.key.day, $0.key.match, $0.key.first) < ($1.key.day, $1.key.match, $1.key.first) }
            .map {
                LinkAnalytics.OpenCount(
                    day: $0.key.day, matchedBy: MatchType(rawValue: $0.key.match)!, firstOpen: $0.key.first == 1,
                    count: $0.count)
            }
        let variantClicks = tally(
            clicks.compactMap { c in c.variant.map { DayArm(day: LinkAnalytics.day(of: c.at), arm: $0) } }
        ).sorted { ($0.key.day, $0.key.arm) < ($1.key.day, $1.key.arm) }
            .map { LinkAnalytics.VariantClickCount(day: $0.key.day, variant: $0.key.arm, count: $0.count) }
        let conversions = Self.conversionSums(events, arm: { _ in -1 }).map {
            LinkAnalytics.ConversionCount(
                day: $0.key.day, type: $0.key.type, currency: $0.key.currency, count: $0.count, amount: $0.amount)
        }
        let variantConversions = Self.conversionSums(events.filter { $0.variant != nil }, arm: { $0.variant! }).map {
            LinkAnalytics.VariantConversionCount(
                day: $0.key.day, variant: $0.key.arm, type: $0.key.type, currency: $0.key.currency, count: $0.count,
                amount: $0.amount)
        }
        return LinkAnalytics(
            clicks: clickRows, countries: countries, referrers: referrers, opens: openRows, conversions: conversions,
            variantClicks: variantClicks, variantConversions: variantConversions)
    }

    struct DayArm: Hashable {
        var day: Int64, arm: Int
    }

    struct ConversionKey: Hashable {
        var day: Int64, arm: Int, type: ConversionType, currency: String?
    }

    /// Leads and sales by day, arm (`arm`), type and currency, in that order; leads have no
    /// currency and no amount, as in `link_conversion_counts`.
    static func conversionSums(_ events: [ConversionEvent], arm: (ConversionEvent) -> Int)
        -> [(key: ConversionKey, count: Int, amount: Int128)]
    {
        var sums: [ConversionKey: (count: Int, amount: Int128)] = [:]
        for e in events {
            let sale = e.type == .sale
            let key = ConversionKey(
                day: LinkAnalytics.day(of: e.occurredAt), arm: arm(e), type: e.type,
                currency: sale ? (e.currency ?? "") : "")
            sums[key, default: (0, 0)].count += 1
            if sale { sums[key]!.amount += Int128(e.amount ?? 0) }
        }
        return sums.map { (key: $0.key, count: $0.value.count, amount: $0.value.amount) }
            .sorted {
                ($0.key.day, $0.key.arm, $0.key.type.rawValue, $0.key.currency ?? "")
                    < ($1.key.day, $1.key.arm, $1.key.type.rawValue, $1.key.currency ?? "")
            }
            .map { row in
                var key = row.key
                if key.currency == "" { key.currency = nil }
                return (key: key, count: row.count, amount: row.amount)
            }
    }
}
