import Core
import Store

/// Builds a domain's association files from the apps attached to it.
///
/// Deterministic: the same apps (in any order) give the same bytes, so ETags stay
/// stable across restarts and across the edge processes of one deployment.
///
/// Which apps appear:
/// - only **enabled** apps (a disabled app "stops new resolutions and redirects to
///   stores"; letting the OS open it for links the resolver would refuse is
///   inconsistent with that; `AssociationChecker` warns about it);
/// - only apps whose identifiers pass `AssociationValidator` (anything else would
///   make Apple or Google discard the entry; the checker reports it);
/// - sorted by app ID (`biq_mapp_` + ULID, so in creation order), first wins on duplicates.
public enum AssociationRenderer {
    /// The edge's own static-asset prefix (CSS, scripts, icons of its pages).
    public static let staticAssetPrefix = "/_biqli/"

    /// The paths no app may claim, in the order they are excluded. Components are tried
    /// in order and the first match wins, so these come before the claim.
    ///
    /// `/*/*` keeps every multi-segment path in Safari: short links are exactly one
    /// segment, and the resolver answers `none` for longer deep links anyway.
    public static let excludedPatterns: [(pattern: String, comment: String)] = [
        ("/m/*", "Edge pages such as /m/handoff stay in the browser"),
        ("/.well-known/*", "Association files and other well-known resources"),
        (staticAssetPrefix + "*", "Static assets of the edge's pages"),
        ("/apple-app-site-association", "This file, at its legacy path"),
        ("/*/*", "Short links are one path segment; deeper paths are not links"),
    ]

    /// The claim: every non-empty one-segment path, with any query (dynamic values) or
    /// fragment. The bare root `/` is not claimed: it goes to the domain's root URL (the
    /// operator's website), which must not be swallowed by the app.
    public static let claimPattern = (pattern: "/?*", comment: "Short links")

    // MARK: apple-app-site-association

    /// The AASA document, or nil when no valid, enabled iOS app is attached (the edge answers 404).
    ///
    /// Modern `components` form only (never legacy `appID`/`paths`). All attached iOS apps
    /// share one `details` entry: they claim the same paths, and one entry keeps the file
    /// small; `appIDs` exists for exactly this. `webcredentials` and `appclips` appear
    /// only when at least one app asks for them.
    public static func appleAppSiteAssociation(apps: [MobileApp]) -> AssociationDocument? {
        guard let value = appleAppSiteAssociationJSON(apps: apps) else { return nil }
        return AssociationDocument(kind: .appleAppSiteAssociation, body: JSONWriter().bytes(value))
    }

    static func appleAppSiteAssociationJSON(apps: [MobileApp]) -> JSONValue? {
        var appIDs: [String] = []
        var webCredentials: [String] = []
        var appClips: [String] = []
        var seen: Set<String> = []
        for app in eligible(apps) {
            guard let ios = app.ios, AssociationValidator.isValidTeamID(ios.teamId),
                AssociationValidator.isValidBundleID(ios.bundleId), seen.insert(ios.appID.lowercased()).inserted
            else { continue }
            appIDs.append(ios.appID)
            if ios.webCredentials { webCredentials.append(ios.appID) }
            if let clip = ios.appClipBundleId, AssociationValidator.isValidBundleID(clip) {
                let clipID = ios.teamId + "." + clip
                if seen.insert(clipID.lowercased()).inserted { appClips.append(clipID) }
            }
        }
        guard !appIDs.isEmpty else { return nil }

        var components: [JSONValue] = excludedPatterns.map { p in
            .object([("/", .string(p.pattern)), ("exclude", .bool(true)), ("comment", .string(p.comment))])
        }
        components.append(.object([("/", .string(claimPattern.pattern)), ("comment", .string(claimPattern.comment))]))

        let details: JSONValue = .object([
            ("appIDs", .array(appIDs.map(JSONValue.string))),
            ("components", .array(components)),
        ])
        var root: [(String, JSONValue)] = [("applinks", .object([("details", .array([details]))]))]
        if !webCredentials.isEmpty {
            root.append(("webcredentials", .object([("apps", .array(webCredentials.map(JSONValue.string)))])))
        }
        if !appClips.isEmpty {
            root.append(("appclips", .object([("apps", .array(appClips.map(JSONValue.string)))])))
        }
        return .object(root)
    }

    // MARK: assetlinks.json

    /// The assetlinks document, or nil when no enabled Android app with a valid package
    /// and at least one valid fingerprint is attached (the edge answers 404).
    ///
    /// One `handle_all_urls` statement per app. Fingerprints are normalised again here
    /// (stored ones already are) and malformed ones are left out rather than served.
    public static func assetLinks(apps: [MobileApp]) -> AssociationDocument? {
        guard let value = assetLinksJSON(apps: apps) else { return nil }
        return AssociationDocument(kind: .assetLinks, body: JSONWriter().bytes(value))
    }

    static func assetLinksJSON(apps: [MobileApp]) -> JSONValue? {
        var statements: [JSONValue] = []
        var seen: Set<String> = []
        for app in eligible(apps) {
            guard let android = app.android, AssociationValidator.isValidPackageName(android.packageName),
                !seen.contains(android.packageName)
            else { continue }
            var fingerprints: [String] = []
            for raw in android.sha256CertFingerprints {
                guard let fp = try? AssociationValidator.normalizedFingerprint(raw) else { continue }
                if !fingerprints.contains(fp) { fingerprints.append(fp) }
            }
            guard !fingerprints.isEmpty else { continue }
            seen.insert(android.packageName)
            statements.append(
                .object([
                    ("relation", .array(["delegate_permission/common.handle_all_urls"])),
                    (
                        "target",
                        .object([
                            ("namespace", "android_app"),
                            ("package_name", .string(android.packageName)),
                            ("sha256_cert_fingerprints", .array(fingerprints.map(JSONValue.string))),
                        ])
                    ),
                ]))
        }
        return statements.isEmpty ? nil : .array(statements)
    }

    /// Enabled apps in a stable order, whatever order the store returned them in.
    static func eligible(_ apps: [MobileApp]) -> [MobileApp] {
        apps.filter(\.enabled).sorted { $0.id < $1.id }
    }
}
