/// One thing `biqli-edge check` reports about association files.
public struct AssociationProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable, Equatable, Comparable {
        /// Apple or Google would reject or ignore the file or entry: links will not open the app.
        case error
        /// Served and valid, but probably not what the operator wants.
        case warning

        public static func < (a: Severity, b: Severity) -> Bool { a == .error && b == .warning }
    }

    /// Stable machine-readable codes (for `check --json` and tests).
    public enum Code: String, Sendable, Equatable, CaseIterable {
        case teamIdInvalid = "ios_team_id_invalid"
        case bundleIdInvalid = "ios_bundle_id_invalid"
        case appClipBundleIdInvalid = "ios_app_clip_bundle_id_invalid"
        case appClipNotUnderApp = "ios_app_clip_not_under_app"
        case packageNameInvalid = "android_package_invalid"
        case fingerprintMalformed = "android_fingerprint_malformed"
        case fingerprintNotNormalized = "android_fingerprint_not_normalized"
        case noFingerprints = "android_no_fingerprints"
        case appDisabled = "app_disabled"
        case appNotAttached = "app_not_attached"
        case unknownDomain = "app_domain_unknown"
        case duplicateAppID = "duplicate_app_id"
        case documentTooLarge = "document_too_large"
        case domainUnverified = "domain_unverified"
        case httpsInactive = "domain_https_inactive"
        case noIOSApp = "domain_no_ios_app"
        case noAndroidApp = "domain_no_android_app"
        case noAppAttached = "domain_no_app"
        case iosAppWithoutLinks = "domain_ios_app_without_links"
    }

    public var severity: Severity
    public var code: Code
    /// The hostname concerned, when the problem is about one domain.
    public var domain: String?
    /// The Mobile App concerned, when the problem is about one app.
    public var appId: String?
    public var message: String
    /// What to change to make the problem go away.
    public var fix: String

    public init(
        severity: Severity, code: Code, domain: String? = nil, appId: String? = nil, message: String, fix: String
    ) {
        self.severity = severity
        self.code = code
        self.domain = domain
        self.appId = appId
        self.message = message
        self.fix = fix
    }

    /// One line: `error domain_https_inactive [go.example.com]: ... Fix: ...`.
    public var description: String {
        var scope: [String] = []
        if let domain { scope.append(domain) }
        if let appId { scope.append(appId) }
        let where_ = scope.isEmpty ? "" : " [" + scope.joined(separator: " ") + "]"
        return "\(severity.rawValue) \(code.rawValue)\(where_): \(message) Fix: \(fix)"
    }
}
