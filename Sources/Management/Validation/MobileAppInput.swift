import Association
import Core
import Model
import Store
import Templates
import Visit

/// A Mobile App as a request states it. Identifier, package and fingerprint rules are
/// the association validators' (`AssociationValidator`), the Play URL rule is the
/// visit's (`PlayReferrer.validateStoreURL`), store targets are the pages'
/// (`StoreTarget`), so the API can never store what those layers would refuse.
enum MobileAppInput {
    static let nested: Set<String> = ["ios", "android"]
    static let readOnly: Set<String> = ["id", "publishableKey", "publishableKeys", "createdAt", "updatedAt"]

    static let maxNameLength = 100
    static let maxDomains = 100
    static let handoffLifetimeRange = 300...604_800
    static let keyOverlapRange = 0...2_592_000

    /// The app to store (fingerprints normalised), or every broken rule. Rules that
    /// need the store (domains exist, app IDs unique per domain, document sizes) are
    /// checked when saving (`CatalogWriter.saveApp`).
    static func decode(_ json: JSONValue, id: String, existing: MobileApp?, now: Int64) throws(ManagementError)
        -> MobileApp
    {
        var problems = FieldProblems()
        guard var input = InputObject(json, path: "", problems: &problems) else { throw .invalid(problems.list) }
        let name = input.string("name", required: true, maxLength: maxNameLength, problems: &problems)
        let enabled = input.bool("enabled", default: true, problems: &problems)
        let iconUrl = input.url("iconUrl", kind: .https, problems: &problems)
        var ios: IOSPlatform?
        if case .some(.some(var object)) = input.object("ios", problems: &problems) {
            ios = decodeIOS(&object, &problems)
        }
        var android: AndroidPlatform?
        if case .some(.some(var object)) = input.object("android", problems: &problems) {
            android = decodeAndroid(&object, &problems)
        }
        if isNull(json["ios"]) && isNull(json["android"]) {
            problems.add("ios", "or android is required: an app needs at least one platform")
        }
        let domains = decodeDomains(&input, &problems)
        let handoff = input.int(
            "handoffLifetimeSeconds", default: MobileApp.defaultHandoffLifetimeSeconds, range: handoffLifetimeRange,
            unit: "seconds", problems: &problems)
        let overlap = input.int(
            "keyOverlapSeconds", default: MobileApp.defaultKeyOverlapSeconds, range: keyOverlapRange,
            unit: "seconds", problems: &problems)
        input.reportUnread(readOnly: readOnly, problems: &problems)
        try problems.check()
        return MobileApp(
            id: id, name: name ?? "", enabled: enabled, iconUrl: iconUrl, ios: ios, android: android,
            domains: domains, handoffLifetimeSeconds: handoff, keyOverlapSeconds: overlap,
            createdAt: existing?.createdAt ?? now, updatedAt: now)
    }

    private static func isNull(_ v: JSONValue?) -> Bool { v == nil || v == .null }

    static func decodeIOS(_ o: inout InputObject, _ p: inout FieldProblems) -> IOSPlatform? {
        let teamId = o.string("teamId", required: true, maxLength: 64, problems: &p)
        if let teamId {
            collect(&p) { () throws(AssociationValidationError) in try AssociationValidator.validateTeamID(teamId) }
        }
        let bundleId = o.string("bundleId", required: true, maxLength: 255, problems: &p)
        if let bundleId {
            collect(&p) { () throws(AssociationValidationError) in try AssociationValidator.validateBundleID(bundleId) }
        }
        let appStoreId = o.nullableString("appStoreId", maxLength: 64, problems: &p)
        if let appStoreId, StoreTarget.appStore(id: appStoreId) == nil {
            p.add(o.field("appStoreId"), "must be the numeric App Store ID (1 to 20 digits), e.g. 1234567890")
        }
        var testFlightUrl = o.nullableString("testFlightUrl", maxLength: 4_096, singleLine: false, problems: &p)
        if let url = testFlightUrl {
            testFlightUrl = StoreTarget.testFlight(url: url)?.url.absoluteString
            if testFlightUrl == nil {
                p.add(
                    URLRule.blocked(url, field: o.field("testFlightUrl"))
                        ?? FieldProblem(
                            o.field("testFlightUrl"),
                            "must be a TestFlight invitation: https://testflight.apple.com/join/<CODE> (CODE: 1 to 32 letters and digits)"
                        ))
            }
        }
        let fallbackUrl = DomainInput.webURL(&o, "fallbackUrl", &p)
        let probabilistic = o.bool("probabilisticFallback", default: false, problems: &p)
        let window = o.int("probabilisticWindowMinutes", default: 60, range: 1...60, unit: "minutes", problems: &p)
        let sdkEnabled = o.bool("sdkEnabled", default: true, problems: &p)
        let webCredentials = o.bool("webCredentials", default: false, problems: &p)
        let clip = o.nullableString("appClipBundleId", maxLength: 255, problems: &p)
        if let clip {
            collect(&p) { () throws(AssociationValidationError) in
                try AssociationValidator.validateBundleID(clip, field: "ios.appClipBundleId")
            }
        }
        o.reportUnread(problems: &p)
        guard let teamId, let bundleId else { return nil }
        return IOSPlatform(
            teamId: teamId, bundleId: bundleId, appStoreId: appStoreId, testFlightUrl: testFlightUrl,
            fallbackUrl: fallbackUrl, probabilisticFallback: probabilistic, probabilisticWindowMinutes: window,
            sdkEnabled: sdkEnabled, webCredentials: webCredentials, appClipBundleId: clip)
    }

    static func decodeAndroid(_ o: inout InputObject, _ p: inout FieldProblems) -> AndroidPlatform? {
        let packageName = o.string("packageName", required: true, maxLength: 255, problems: &p)
        var packageValid = false
        if let packageName {
            packageValid = AssociationValidator.isValidPackageName(packageName)
            collect(&p) { () throws(AssociationValidationError) in
                try AssociationValidator.validatePackageName(packageName)
            }
        }
        var fingerprints: [String] = []
        if let items = o.array(
            "sha256CertFingerprints", maxItems: AssociationValidator.maxFingerprints, problems: &p)
        {
            for (i, item) in items.enumerated() {
                let field = "android.sha256CertFingerprints[\(i)]"
                guard case .string(let raw) = item else {
                    p.add(field, "must be a string")
                    continue
                }
                do throws(AssociationValidationError) {
                    let fp = try AssociationValidator.normalizedFingerprint(raw, field: field)
                    if !fingerprints.contains(fp) { fingerprints.append(fp) }
                } catch {
                    p.add(error.field, error.message)
                }
            }
        }
        let playStoreUrl = o.nullableString("playStoreUrl", maxLength: 4_096, singleLine: false, problems: &p)
        if let playStoreUrl {
            if let refusal = URLRule.blocked(playStoreUrl, field: o.field("playStoreUrl")) {
                p.add(refusal)
            } else if let packageName, packageValid {
                do throws(PlayStoreURLError) {
                    try PlayReferrer.validateStoreURL(playStoreUrl, packageName: packageName)
                } catch {
                    p.add(error.field, error.message)
                }
            }
        }
        let fallbackUrl = DomainInput.webURL(&o, "fallbackUrl", &p)
        let sdkEnabled = o.bool("sdkEnabled", default: true, problems: &p)
        o.reportUnread(problems: &p)
        guard let packageName else { return nil }
        return AndroidPlatform(
            packageName: packageName, sha256CertFingerprints: fingerprints, playStoreUrl: playStoreUrl,
            fallbackUrl: fallbackUrl, sdkEnabled: sdkEnabled)
    }

    static func decodeDomains(_ input: inout InputObject, _ p: inout FieldProblems) -> [String] {
        guard let items = input.array("domains", maxItems: maxDomains, problems: &p) else { return [] }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            guard case .string(let host) = item, HostnameRule.isValid(host) else {
                p.add("domains[\(i)]", HostnameRule.rule)
                continue
            }
            if out.contains(host) {
                p.add("domains[\(i)]", "repeats \(host); list each domain once")
            } else {
                out.append(host)
            }
        }
        return out
    }

    /// Runs one association check, turning its error into a field problem.
    static func collect(_ p: inout FieldProblems, _ check: () throws(AssociationValidationError) -> Void) {
        do throws(AssociationValidationError) {
            try check()
        } catch {
            p.add(error.field, error.message)
        }
    }

    /// The writable fields as stored: the base a PATCH is merged into, and what
    /// `apply` compares with.
    static func writable(_ app: MobileApp) -> JSONValue {
        var ios: JSONValue = .null
        if let i = app.ios {
            ios = .object([
                ("teamId", .string(i.teamId)), ("bundleId", .string(i.bundleId)),
                ("appStoreId", .string(orNull: i.appStoreId)), ("testFlightUrl", .string(orNull: i.testFlightUrl)),
                ("fallbackUrl", .string(orNull: i.fallbackUrl)),
                ("probabilisticFallback", .bool(i.probabilisticFallback)),
                ("probabilisticWindowMinutes", .int(Int64(i.probabilisticWindowMinutes))),
                ("sdkEnabled", .bool(i.sdkEnabled)), ("webCredentials", .bool(i.webCredentials)),
                ("appClipBundleId", .string(orNull: i.appClipBundleId)),
            ])
        }
        var android: JSONValue = .null
        if let a = app.android {
            android = .object([
                ("packageName", .string(a.packageName)),
                ("sha256CertFingerprints", .array(a.sha256CertFingerprints.map { .string($0) })),
                ("playStoreUrl", .string(orNull: a.playStoreUrl)), ("fallbackUrl", .string(orNull: a.fallbackUrl)),
                ("sdkEnabled", .bool(a.sdkEnabled)),
            ])
        }
        return .object([
            ("name", .string(app.name)), ("enabled", .bool(app.enabled)), ("iconUrl", .string(orNull: app.iconUrl)),
            ("ios", ios), ("android", android), ("domains", .array(app.domains.map { .string($0) })),
            ("handoffLifetimeSeconds", .int(Int64(app.handoffLifetimeSeconds))),
            ("keyOverlapSeconds", .int(Int64(app.keyOverlapSeconds))),
        ])
    }
}
