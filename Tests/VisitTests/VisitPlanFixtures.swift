import Model

@testable import Visit

/// Links, apps, domains and visitors for the visit-plan tests: everything on by default,
/// each test turning off the one thing it is about.
enum VisitPlanFixtures {
    static let appId = "biq_mapp_01J00000000000000000000001"
    static let webURL = "https://example.com/invite"
    static let fallbackURL = "https://example.com/ios"
    static let testFlightURL = "https://testflight.apple.com/join/ABCDEF"

    static func link(mobile: Bool = true, deepView: Bool = true, trackConversions: Bool? = nil) -> Link {
        Link(
            id: "biq_lnk_01J00000000000000000000001", domain: "go.example.com", key: "invite", url: webURL,
            mobile: mobile ? MobilePayload(appId: appId, route: "/invite/42", deepView: deepView) : nil,
            trackConversions: trackConversions)
    }

    static func ios(
        appStoreId: String? = "1234567890", testFlightUrl: String? = nil, fallbackUrl: String? = fallbackURL,
        probabilistic: Bool = false
    ) -> IOSPlatform {
        IOSPlatform(
            teamId: "ABCDE12345", bundleId: "com.example.app", appStoreId: appStoreId, testFlightUrl: testFlightUrl,
            fallbackUrl: fallbackUrl, probabilisticFallback: probabilistic)
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// `appLinks`: with a signing fingerprint (its App Links set up).
    static func android(playStoreUrl: String? = nil, appLinks: Bool = false) -> AndroidPlatform {
        AndroidPlatform(
            packageName: "com.example.app", sha256CertFingerprints: appLinks ? [fingerprint] : [],
            playStoreUrl: playStoreUrl)
    }

    static func app(enabled: Bool = true, ios: IOSPlatform? = ios(), android: AndroidPlatform? = android())
        -> MobileApp
    {
        MobileApp(id: appId, name: "Example", enabled: enabled, ios: ios, android: android)
    }

    static func domain(deepView: Bool = true, trackConversions: Bool = false, alternateHostname: String? = nil)
        -> Domain
    {
        Domain(
            hostname: "go.example.com", verified: true, deepViewEnabled: deepView, trackConversions: trackConversions,
            alternateHostname: alternateHostname)
    }

    static let head = Visitor(kind: .head)
    static let bot = Visitor(kind: .bot("Slackbot"))
    static let desktop = Visitor(kind: .desktop)
    static let android = Visitor(kind: .android)
    /// Android inside Instagram's web view (decision 0033).
    static let androidInApp = Visitor(kind: .android, inAppBrowser: "instagram")
    static let iphone = Visitor(kind: .ios(osVersion: "17.4"))
    /// iOS 17.4 inside Instagram's browser (decision 0033 §4).
    static let iphoneInApp = Visitor(kind: .ios(osVersion: "17.4"), inAppBrowser: "instagram")

    /// The plan of a visit with the fixtures above unless told otherwise.
    static func plan(
        _ visitor: Visitor, link: Link = link(), app: MobileApp? = app(), domain: Domain = domain()
    ) -> VisitPlan {
        VisitPlanner.plan(link: link, app: app, domain: domain, visitor: visitor)
    }
}
