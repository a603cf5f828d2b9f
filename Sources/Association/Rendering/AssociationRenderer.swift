import Core
import Model

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

    /// The claim of a domain with one iOS app: every non-empty one-segment path, with any
    /// query (dynamic values) or fragment. The bare root `/` is not claimed: it goes to
    /// the domain's root URL (the operator's website), which must not be swallowed by the app.
    public static let claimPattern = (pattern: "/?*", comment: "Short links")

    // MARK: apple-app-site-association

    /// The AASA document, or nil when no valid, enabled iOS app is attached (the edge answers 404).
    ///
    /// Modern `components` form only (never legacy `appID`/`paths`). With one iOS app,
    /// one `details` entry claims every one-segment path (`claimPattern`), so `links` is
    /// not looked at. With several, iOS would give every link to whichever entry matches
    /// first, so each app gets its own entry that claims only the keys of its own
    /// enabled links (`links` with its `appId`), after the shared exclusions; links of
    /// no listed app (web-only links, links of other apps) stay in the browser
    /// (decision 0012). `webcredentials` and `appclips` appear only when at least one
    /// app asks for them.
    public static func appleAppSiteAssociation(apps: [MobileApp], links: [LinkClaim]) -> AssociationDocument? {
        guard let value = appleAppSiteAssociationJSON(apps: apps, links: links) else { return nil }
        return AssociationDocument(kind: .appleAppSiteAssociation, body: JSONWriter().bytes(value))
    }

    /// True when the AASA of `apps` claims links key by key (more than one iOS app is
    /// listed), so that it depends on the domain's links; false for the wildcard form.
    public static func claimsLinksByKey(apps: [MobileApp]) -> Bool {
        iosEntries(apps).apps.count > 1
    }

    /// The iOS apps the AASA lists, in order, with the `webcredentials` and `appclips` IDs.
    static func iosEntries(_ apps: [MobileApp]) -> (
        apps: [(id: String, appID: String)], webCredentials: [String], appClips: [String]
    ) {
        var listed: [(id: String, appID: String)] = []
        var webCredentials: [String] = []
        var appClips: [String] = []
        var seen: Set<String> = []
        for app in eligible(apps) {
            guard let ios = app.ios, AssociationValidator.isValidTeamID(ios.teamId),
                AssociationValidator.isValidBundleID(ios.bundleId), seen.insert(ios.appID.lowercased()).inserted
            else { continue }
            listed.append((app.id, ios.appID))
            if ios.webCredentials { webCredentials.append(ios.appID) }
            if let clip = ios.appClipBundleId, AssociationValidator.isValidBundleID(clip) {
                let clipID = ios.teamId + "." + clip
                if seen.insert(clipID.lowercased()).inserted { appClips.append(clipID) }
            }
        }
        return (listed, webCredentials, appClips)
    }

    static func appleAppSiteAssociationJSON(apps: [MobileApp], links: [LinkClaim]) -> JSONValue? {
        let (listed, webCredentials, appClips) = iosEntries(apps)
        guard !listed.isEmpty else { return nil }

        let exclusions: [JSONValue] = excludedPatterns.map { p in
            .object([("/", .string(p.pattern)), ("exclude", .bool(true)), ("comment", .string(p.comment))])
        }
        var details: [JSONValue] = []
        if listed.count == 1 {
            let claim: JSONValue = .object([
                ("/", .string(claimPattern.pattern)), ("comment", .string(claimPattern.comment)),
            ])
            details.append(
                .object([
                    ("appIDs", .array([.string(listed[0].appID)])), ("components", .array(exclusions + [claim])),
                ]))
        } else {
            let keys = keysByApp(links)
            for entry in listed {
                let claims = (keys[entry.id] ?? []).map { key -> JSONValue in .object([("/", .string("/" + key))]) }
                details.append(
                    .object([
                        ("appIDs", .array([.string(entry.appID)])), ("components", .array(exclusions + claims)),
                    ]))
            }
        }
        var root: [(String, JSONValue)] = [("applinks", .object([("details", .array(details))]))]
        if !webCredentials.isEmpty {
            root.append(("webcredentials", .object([("apps", .array(webCredentials.map(JSONValue.string)))])))
        }
        if !appClips.isEmpty {
            root.append(("appclips", .object([("apps", .array(appClips.map(JSONValue.string)))])))
        }
        return .object(root)
    }

    /// The enabled links' keys per app ID, sorted and unique. A key that could be read as
    /// a pattern (`*`, `?`) or needs percent-encoding cannot be stored (`^[A-Za-z0-9_-]{1,64}$`);
    /// one that somehow is, is left out rather than claim more than its own link.
    static func keysByApp(_ links: [LinkClaim]) -> [String: [String]] {
        var keys: [String: Set<String>] = [:]
        for link in links where link.enabled && AssociationValidator.isClaimableKey(link.key) {
            keys[link.appId, default: []].insert(link.key)
        }
        return keys.mapValues { $0.sorted() }
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
