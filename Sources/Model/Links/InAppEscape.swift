/// A way out of an in-app browser that the edge may offer (issue 36, decision 0033 §5).
/// The Deep View's Continue button is no escape: it works everywhere and is always there.
public enum InAppEscape: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Android: the Play redirect as the Play Store intent (`PlayStoreIntent`).
    case playIntent
    /// Android: the app's own intent with the short link first (`AppIntent`).
    case appIntent
    /// iOS: "Open in Safari" (`SafariEscape`, or the app's menu steps).
    case safari
    /// iOS: "Open in the app" through the domain's alternate hostname.
    case alternateDomain
}
