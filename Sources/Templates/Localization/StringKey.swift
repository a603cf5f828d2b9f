/// The keys of a string table: the same names are used in the operator's JSON files
/// (`<dir>/<lang>.json`, e.g. `{"deepview.continue": "Weiter"}`).
///
/// Values are plain text (never markup: every value is HTML-escaped when rendered). The only
/// placeholder is `{app}`, replaced by the app's name (or by `app.generic` when no app is known);
/// a key may use `{app}` only where the English text does.
public enum StringKey: String, CaseIterable, Sendable {
    /// `ltr` or `rtl`, the page's `dir` attribute.
    case direction = "direction"
    /// Stands in for `{app}` when the app is unknown ("the app").
    case appGeneric = "app.generic"

    /// Deep View: the line under the app's name when the target is the App Store.
    case deepViewSubtitleAppStore = "deepview.subtitle.appStore"
    /// Deep View: the line under the app's name when the target is TestFlight.
    case deepViewSubtitleTestFlight = "deepview.subtitle.testFlight"
    /// Deep View: the button's label (and accessible name).
    case deepViewContinue = "deepview.continue"
    /// Deep View: the one sentence that says Continue copies a link the app will ask to paste.
    case deepViewExplain = "deepview.explain"
    /// Deep View: announced after a successful copy, App Store target.
    case deepViewCopiedAppStore = "deepview.copied.appStore"
    /// Deep View: announced after a successful copy, TestFlight target.
    case deepViewCopiedTestFlight = "deepview.copied.testFlight"

    /// Deep View in an app's own browser (decision 0033 §4): the part's heading, with
    /// `{browser}` the app's name ("Instagram").
    case inAppTitle = "inapp.title"
    /// The heading in a browser of an app the edge cannot name.
    case inAppTitleGeneric = "inapp.title.generic"
    /// The one sentence that says why the part is there.
    case inAppExplain = "inapp.explain"
    /// The button that hands the short link to Safari.
    case inAppSafari = "inapp.safari"
    /// The steps to Safari through the app's `⋯` menu, where the page cannot link there.
    case inAppStepsMenu = "inapp.steps.menu"
    /// The steps to Safari through the menu of any other app.
    case inAppStepsGeneric = "inapp.steps.generic"
    /// The button to the short link on the domain's alternate hostname, which opens the app.
    case inAppOpenApp = "inapp.openApp"

    /// Link preview page: the button to the link's web destination.
    case previewOpen = "preview.open"

    /// `/m/handoff` landing page.
    case handoffTitle = "handoff.title"
    case handoffIntro = "handoff.intro"
    case handoffStepInstall = "handoff.step.install"
    case handoffStepOpen = "handoff.step.open"
    case handoffStepPaste = "handoff.step.paste"
    case handoffButtonAppStore = "handoff.button.appStore"
    case handoffButtonTestFlight = "handoff.button.testFlight"

    /// Not found (404), disabled link (410), generic error (500), and a domain's root page.
    case notFoundTitle = "notFound.title"
    case notFoundBody = "notFound.body"
    case disabledTitle = "disabled.title"
    case disabledBody = "disabled.body"
    /// A link past its `expiresAt` without an `expiredUrl` (410).
    case expiredTitle = "expired.title"
    case expiredBody = "expired.body"
    case errorTitle = "error.title"
    case errorBody = "error.body"
    case rootTitle = "root.title"
    case rootBody = "root.body"
}
