import Model

/// What `biqli-edge check` says about association files: everything that would make
/// Apple's or Google's verification fail, or the edge serve something unexpected,
/// each with a fix.
///
/// Pure: it takes the configuration and the certificate state (which hosts have a
/// valid certificate loaded) and renders the documents itself, exactly as the edge
/// would serve them.
public enum AssociationChecker {
    /// Problems in a stable order: per app (by ID), then per domain (by hostname).
    ///
    /// `links` holds each domain's link claims (`StoreReader.linkClaims`): the AASA of a
    /// domain with several iOS apps lists them key by key. A domain missing there has none.
    public static func check(
        apps: [MobileApp], domains: [Domain], links: [String: [LinkClaim]], httpsActiveHosts: Set<String>
    ) -> [AssociationProblem] {
        var problems: [AssociationProblem] = []
        let known = Set(domains.map(\.hostname))
        let sortedApps = apps.sorted { $0.id < $1.id }
        for app in sortedApps { checkApp(app, knownDomains: known, into: &problems) }
        for domain in domains.sorted(by: { $0.hostname < $1.hostname }) {
            let attached = sortedApps.filter { $0.domains.contains(domain.hostname) }
            checkDomain(
                domain, attached: attached, links: links[domain.hostname] ?? [],
                httpsActive: httpsActiveHosts.contains(domain.hostname), into: &problems)
        }
        return problems
    }

    static func checkApp(_ app: MobileApp, knownDomains: Set<String>, into problems: inout [AssociationProblem]) {
        func add(
            _ severity: AssociationProblem.Severity, _ code: AssociationProblem.Code, _ message: String, _ fix: String
        ) {
            problems.append(.init(severity: severity, code: code, appId: app.id, message: message, fix: fix))
        }
        if let ios = app.ios {
            if !AssociationValidator.isValidTeamID(ios.teamId) {
                add(
                    .error, .teamIdInvalid,
                    "ios.teamId \(AssociationValidator.teamIDRule); the app is left out of the AASA.",
                    "Copy the 10-character Team ID from Apple Developer > Membership details.")
            }
            if !AssociationValidator.isValidBundleID(ios.bundleId) {
                add(
                    .error, .bundleIdInvalid,
                    "ios.bundleId \(AssociationValidator.bundleIDRule); the app is left out of the AASA.",
                    "Use the bundle identifier of the app target in Xcode (e.g. com.example.app).")
            }
            if let clip = ios.appClipBundleId {
                if !AssociationValidator.isValidBundleID(clip) {
                    add(
                        .error, .appClipBundleIdInvalid, "ios.appClipBundleId \(AssociationValidator.bundleIDRule).",
                        "Use the App Clip target's bundle identifier, or remove it.")
                } else if !clip.lowercased().hasPrefix(ios.bundleId.lowercased() + ".") {
                    add(
                        .warning, .appClipNotUnderApp,
                        "ios.appClipBundleId \(clip) does not extend ios.bundleId \(ios.bundleId); Apple requires an App Clip's bundle ID to start with its app's.",
                        "Use \(ios.bundleId).Clip (or whatever suffix the App Clip target has).")
                }
            }
        }
        if let android = app.android {
            if !AssociationValidator.isValidPackageName(android.packageName) {
                add(
                    .error, .packageNameInvalid,
                    "android.packageName \(AssociationValidator.packageNameRule); the app is left out of assetlinks.json.",
                    "Use the applicationId from the app's build.gradle (e.g. com.example.app).")
            }
            if android.sha256CertFingerprints.isEmpty && !app.domains.isEmpty {
                add(
                    .error, .noFingerprints,
                    "android.sha256CertFingerprints is empty, so assetlinks.json has no statement for the app and Android App Links will not verify.",
                    "Add the SHA-256 of the app signing key (Play Console > Setup > App integrity) and of the upload key if you test unsigned builds."
                )
            }
            for (i, raw) in android.sha256CertFingerprints.enumerated() {
                if (try? AssociationValidator.normalizedFingerprint(raw)) == nil {
                    add(
                        .error, .fingerprintMalformed,
                        "android.sha256CertFingerprints[\(i)] \(AssociationValidator.fingerprintRule); it is left out of assetlinks.json.",
                        "Copy the SHA-256 certificate fingerprint from Play Console or `keytool -list -v`.")
                } else if !AssociationValidator.isNormalizedFingerprint(raw) {
                    add(
                        .warning, .fingerprintNotNormalized,
                        "android.sha256CertFingerprints[\(i)] is not stored in upper-case colon-separated form (it is served normalised).",
                        "Save the app again to store the canonical form.")
                }
            }
        }
        if !app.enabled && !app.domains.isEmpty {
            add(
                .warning, .appDisabled,
                "The app is disabled, so it is left out of the association files of \(app.domains.joined(separator: ", ")); installed copies stop opening its links once Apple's CDN and Android re-fetch (up to a day).",
                "Enable the app, or detach it from these domains if that is what you want.")
        }
        if app.domains.isEmpty && (app.ios != nil || app.android != nil) {
            add(
                .warning, .appNotAttached, "The app is attached to no domain, so no association file lists it.",
                "Attach the app to the domains its links live on.")
        }
        for host in app.domains where !knownDomains.contains(host) {
            problems.append(
                .init(
                    severity: .error, code: .unknownDomain, domain: host, appId: app.id,
                    message: "The app is attached to \(host), which is not a configured domain.",
                    fix: "Create the domain, or remove it from the app's domains."))
        }
    }

    static func checkDomain(
        _ domain: Domain, attached: [MobileApp], links: [LinkClaim], httpsActive: Bool,
        into problems: inout [AssociationProblem]
    ) {
        let host = domain.hostname
        func add(
            _ severity: AssociationProblem.Severity, _ code: AssociationProblem.Code, _ message: String, _ fix: String
        ) {
            problems.append(.init(severity: severity, code: code, domain: host, message: message, fix: fix))
        }
        if attached.isEmpty {
            add(
                .warning, .noAppAttached,
                "No Mobile App is attached: both association files answer 404 and no link on this domain opens an app.",
                "Attach a Mobile App to the domain, unless it only serves web links.")
            return
        }
        if !httpsActive {
            add(
                .error, .httpsInactive,
                "No valid certificate is loaded for \(host): Apple and Google fetch association files over HTTPS only, so verification fails.",
                "Put a valid <hostname>.pem (chain and key) in the certificate directory and reload (SIGHUP).")
        }
        if !domain.verified {
            add(
                .error, .domainUnverified,
                "The domain is not marked verified: links may open the app, but the resolver answers matchedBy none for its app links.",
                "Mark the domain verified once you control its DNS (PATCH /api/v1/domains/\(host) {\"verified\": true})."
            )
        }
        reportDuplicates(attached, domain: host, into: &problems)

        let hasIOS = attached.contains { $0.ios != nil }
        if let aasa = AssociationRenderer.appleAppSiteAssociation(apps: attached, links: links) {
            checkLinkKeys(attached, links: links, aasa: aasa, domain: host, into: &problems)
        } else {
            add(
                hasIOS ? .error : .warning, .noIOSApp,
                hasIOS
                    ? "Every attached iOS app is disabled or invalid, so apple-app-site-association answers 404 and Universal Links do not open an app."
                    : "No attached app has an iOS platform, so apple-app-site-association answers 404.",
                hasIOS
                    ? "Fix or enable the iOS app (see the app problems above)."
                    : "Add an iOS platform if you ship an iOS app.")
        }
        let hasAndroid = attached.contains { $0.android != nil }
        if let links = AssociationRenderer.assetLinks(apps: attached) {
            if !links.isWithinSizeLimit {
                add(
                    .error, .documentTooLarge,
                    "assetlinks.json is \(links.body.count) bytes, over the \(AssociationDocument.maxBytes)-byte limit.",
                    "Attach fewer Android apps or fingerprints to this domain.")
            }
        } else {
            add(
                hasAndroid ? .error : .warning, .noAndroidApp,
                hasAndroid
                    ? "Every attached Android app is disabled, invalid or without fingerprints, so assetlinks.json answers 404 and App Links do not verify."
                    : "No attached app has an Android platform, so assetlinks.json answers 404.",
                hasAndroid
                    ? "Fix or enable the Android app (see the app problems above)."
                    : "Add an Android platform if you ship an Android app.")
        }
    }

    /// The AASA's size, with the fix that fits: one domain per app when it lists several
    /// iOS apps' link keys. Also what the save-time checks refuse in advance (the size
    /// once every disabled app and link is enabled), and the apps that no link opens.
    static func checkLinkKeys(
        _ attached: [MobileApp], links: [LinkClaim], aasa: AssociationDocument, domain: String,
        into problems: inout [AssociationProblem]
    ) {
        let limit = AssociationDocument.maxBytes
        let byKey = AssociationRenderer.claimsLinksByKey(apps: attached)
        // The links' keys are to blame when the same apps without links would fit.
        let keysToBlame =
            byKey && AssociationRenderer.appleAppSiteAssociation(apps: attached, links: [])?.isWithinSizeLimit == true
        let onePerApp =
            "Give each iOS app its own domain (one domain per app: its file then claims every link with one pattern), or delete links of this domain."
        if !aasa.isWithinSizeLimit {
            problems.append(
                .init(
                    severity: .error, code: .documentTooLarge, domain: domain,
                    message: keysToBlame
                        ? "apple-app-site-association is \(aasa.body.count) bytes, over Apple's \(limit)-byte limit, because several iOS apps share this domain and each app's entry lists its links' keys; Apple ignores the whole file."
                        : "apple-app-site-association is \(aasa.body.count) bytes, over Apple's \(limit)-byte limit; Apple ignores the whole file.",
                    fix: keysToBlame ? onePerApp : "Attach fewer iOS apps to this domain."))
        } else if AssociationValidator.sizeDependsOnLinks(apps: attached),
            let full = AssociationRenderer.appleAppSiteAssociation(
                apps: AssociationValidator.allEnabled(attached), links: AssociationValidator.allEnabled(links)),
            !full.isWithinSizeLimit
        {
            problems.append(
                .init(
                    severity: .warning, code: .documentTooLarge, domain: domain,
                    message:
                        "apple-app-site-association would be \(full.body.count) bytes, over Apple's \(limit)-byte limit, once the disabled apps and links of this domain are enabled (several iOS apps share it, so each app's entry lists its links' keys); enabling them, and any new link with an app here, is refused.",
                    fix: onePerApp))
        }
        guard byKey else { return }
        let claimed = Set(links.filter(\.enabled).map(\.appId))
        var seen: Set<String> = []
        for app in AssociationRenderer.eligible(attached) {
            guard let ios = app.ios, AssociationValidator.isValidTeamID(ios.teamId),
                AssociationValidator.isValidBundleID(ios.bundleId), seen.insert(ios.appID.lowercased()).inserted,
                !claimed.contains(app.id)
            else { continue }
            problems.append(
                .init(
                    severity: .warning, code: .iosAppWithoutLinks, domain: domain, appId: app.id,
                    message:
                        "Several iOS apps share this domain, so each opens only its own links, and no enabled link here names this app (mobile.appId): no Universal Link on this domain opens it.",
                    fix: "Create the app's links on this domain with mobile.appId \(app.id), or detach the app from it."
                ))
        }
    }

    /// Every collision, not just the first (the save-time check stops at the first).
    static func reportDuplicates(_ attached: [MobileApp], domain: String, into problems: inout [AssociationProblem]) {
        var owners: [String: String] = [:]
        func claim(_ key: String, _ shown: String, by app: MobileApp) {
            if let other = owners[key] {
                if other != app.id {
                    problems.append(
                        .init(
                            severity: .error, code: .duplicateAppID, domain: domain, appId: app.id,
                            message:
                                "\(shown) is also claimed by app \(other) on this domain; only the first is served.",
                            fix: "Attach only one of the two apps to \(domain), or correct the identifier."))
                }
                return
            }
            owners[key] = app.id
        }
        for app in attached {
            if let ios = app.ios {
                claim("ios:" + ios.appID.lowercased(), ios.appID, by: app)
                if let clip = ios.appClipBundleId {
                    claim("ios:" + (ios.teamId + "." + clip).lowercased(), ios.teamId + "." + clip, by: app)
                }
            }
            if let android = app.android { claim("android:" + android.packageName, android.packageName, by: app) }
        }
    }
}
