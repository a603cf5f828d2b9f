import Core

/// A registered iOS and/or Android app (`biq_mapp_` + ULID).
public struct MobileApp: Sendable, Equatable {
    public var id: String
    public var name: String
    /// `false` stops new resolutions and store redirects.
    public var enabled: Bool
    /// Shown on the Deep View; an `https:` URL or nil.
    public var iconUrl: String?
    public var ios: IOSPlatform?
    public var android: AndroidPlatform?
    /// Hostnames of the domains this app's links and association entries live on.
    public var domains: [String]
    /// Lifetime of an exact handoff created by a visit (default one day).
    public var handoffLifetimeSeconds: Int
    /// How long a rotated-out publishable key keeps working (default seven days).
    public var keyOverlapSeconds: Int
    public var createdAt: Int64
    public var updatedAt: Int64

    public static let defaultHandoffLifetimeSeconds = 86_400
    public static let defaultKeyOverlapSeconds = 7 * 86_400

    public init(
        id: String, name: String, enabled: Bool = true, iconUrl: String? = nil, ios: IOSPlatform? = nil,
        android: AndroidPlatform? = nil, domains: [String] = [],
        handoffLifetimeSeconds: Int = MobileApp.defaultHandoffLifetimeSeconds,
        keyOverlapSeconds: Int = MobileApp.defaultKeyOverlapSeconds, createdAt: Int64 = 0, updatedAt: Int64 = 0
    ) {
        self.id = id
        self.name = name
        self.enabled = enabled
        self.iconUrl = iconUrl
        self.ios = ios
        self.android = android
        self.domains = domains
        self.handoffLifetimeSeconds = handoffLifetimeSeconds
        self.keyOverlapSeconds = keyOverlapSeconds
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func platform(_ p: Platform) -> Bool {
        switch p {
        case .ios: return ios != nil
        case .android: return android != nil
        }
    }
}

/// The iOS half of a Mobile App.
public struct IOSPlatform: Sendable, Equatable {
    /// Apple Developer Team ID, `^[A-Z0-9]{10}$`.
    public var teamId: String
    public var bundleId: String
    /// Numeric App Store ID; enables the App Store target and the Smart App Banner.
    public var appStoreId: String?
    /// `https://testflight.apple.com/join/<CODE>`; used when there is no App Store ID.
    public var testFlightUrl: String?
    /// Where iOS visitors go when Deep View is off (domain or link). Nil: the store.
    public var fallbackUrl: String?
    /// The app allows consented probabilistic matching.
    public var probabilisticFallback: Bool
    /// Candidate window, 1...60 minutes.
    public var probabilisticWindowMinutes: Int
    /// `false` answers the resolver's iOS requests with `mobile_sdk_unavailable`.
    public var sdkEnabled: Bool
    /// Adds the app to `webcredentials` in the AASA.
    public var webCredentials: Bool
    /// App Clip bundle ID, listed under `appclips` in the AASA.
    public var appClipBundleId: String?

    public init(
        teamId: String, bundleId: String, appStoreId: String? = nil, testFlightUrl: String? = nil,
        fallbackUrl: String? = nil, probabilisticFallback: Bool = false, probabilisticWindowMinutes: Int = 60,
        sdkEnabled: Bool = true, webCredentials: Bool = false, appClipBundleId: String? = nil
    ) {
        self.teamId = teamId
        self.bundleId = bundleId
        self.appStoreId = appStoreId
        self.testFlightUrl = testFlightUrl
        self.fallbackUrl = fallbackUrl
        self.probabilisticFallback = probabilisticFallback
        self.probabilisticWindowMinutes = probabilisticWindowMinutes
        self.sdkEnabled = sdkEnabled
        self.webCredentials = webCredentials
        self.appClipBundleId = appClipBundleId
    }

    /// `TEAMID.bundle.id`, the AASA app identifier.
    public var appID: String { teamId + "." + bundleId }

    /// The store page an iOS visitor is sent to: App Store when an ID exists, else TestFlight.
    public var storeUrl: String? {
        if hasAppStoreId, let id = appStoreId { return "https://apps.apple.com/app/id" + id }
        return testFlightUrl
    }

    /// `storeUrl != nil` without building the URL: every Deep View visit asks.
    public var hasStoreUrl: Bool { hasAppStoreId || testFlightUrl != nil }

    private var hasAppStoreId: Bool {
        guard let id = appStoreId else { return false }
        return !id.isEmpty
    }
}

/// The Android half of a Mobile App.
public struct AndroidPlatform: Sendable, Equatable {
    public var packageName: String
    /// Upper-case, colon-separated SHA-256 signing-certificate fingerprints.
    public var sha256CertFingerprints: [String]
    /// Operator-configured Play URL; nil means `https://play.google.com/store/apps/details?id=<package>`.
    public var playStoreUrl: String?
    public var fallbackUrl: String?
    public var sdkEnabled: Bool

    public init(
        packageName: String, sha256CertFingerprints: [String] = [], playStoreUrl: String? = nil,
        fallbackUrl: String? = nil, sdkEnabled: Bool = true
    ) {
        self.packageName = packageName
        self.sha256CertFingerprints = sha256CertFingerprints
        self.playStoreUrl = playStoreUrl
        self.fallbackUrl = fallbackUrl
        self.sdkEnabled = sdkEnabled
    }
}

/// A native platform of the resolver contract.
public enum Platform: String, Sendable, Equatable, CaseIterable {
    case ios
    case android
}
