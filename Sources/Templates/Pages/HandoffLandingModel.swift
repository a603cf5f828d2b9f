import Model

/// The `/m/handoff` page, for someone who opened the copied handoff URL in a browser. It never
/// shows the token; it only explains what to do (install, open, tap Paste).
public struct HandoffLandingModel: Sendable {
    /// The app's name when the edge knows it (from the handoff); nil says "the app".
    public var appName: String?
    public var iconURL: SafeURL?
    /// Adds a button to the App Store or TestFlight.
    public var store: StoreTarget?

    public init(appName: String? = nil, iconURL: SafeURL? = nil, store: StoreTarget? = nil) {
        self.appName = appName
        self.iconURL = iconURL
        self.store = store
    }

    /// The model for the app a handoff belongs to.
    public init(app: MobileApp) {
        self.init(
            appName: app.name, iconURL: app.iconUrl.flatMap(SafeURL.init), store: app.ios.flatMap(StoreTarget.init))
    }
}
