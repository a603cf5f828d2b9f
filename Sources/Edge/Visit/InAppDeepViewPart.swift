import Templates
import Visit

/// The Deep View's in-app part for one visit (decision 0033 §4): the plan's offer made
/// into the page's links. They carry the visit's own path and query (`target`): the short
/// link as the visitor opened it, on the link's domain (Safari) or on its alternate
/// hostname (the app, through a universal link).
enum InAppDeepViewPart {
    /// - Parameters:
    ///   - tag: the visitor's in-app browser (`Visitor.inAppBrowser`).
    ///   - host: the link's domain; `alternateHost`, the domain's alternate hostname.
    static func make(_ offer: InAppDeepView, tag: String?, host: String, alternateHost: String?, target: String)
        -> DeepViewInApp
    {
        var part = DeepViewInApp(browserName: tag.flatMap(InAppBrowserName.displayName(tag:)))
        let steps: DeepViewInApp.Steps =
            tag.map(InAppBrowserName.hasEllipsisMenu(tag:)) == true ? .ellipsisMenu : .appMenu
        switch offer.safari {
        case .scheme:
            // Safari's own visit carries the marker (`bq_ia=1`, never passed on). A short
            // link no page may hold as a URL (a quote in its query) gets the steps instead.
            part.safariURL = SafeURL(SafariEscape.marked("https://" + host + target))
            if part.safariURL == nil { part.steps = steps }
        case .menuSteps:
            part.steps = steps
        case .off:
            break
        }
        if offer.alternateDomain, let alternateHost {
            part.appURL = SafeURL("https://" + alternateHost + target)
        }
        return part
    }
}
