import Model

extension AssociationValidator {
    /// Checks the set of apps that would be attached to `domain`: no app ID twice
    /// (`TEAMID.bundle` compared case-insensitively, as Apple treats bundle IDs; App
    /// Clip IDs included; Android package names compared exactly), and both documents
    /// within `AssociationDocument.maxBytes`, the AASA with the domain's `links` (which
    /// it lists key by key once several iOS apps share the domain).
    ///
    /// Apps are taken in the given order; a collision is reported against the later
    /// app, so put the app being saved last. Disabled apps and links count as if
    /// enabled, so that re-enabling one can never produce a duplicate or an oversized document.
    public static func validateAttachments(domain: String, apps: [MobileApp], links: [LinkClaim])
        throws(AssociationValidationError)
    {
        var iosOwners: [String: String] = [:]
        var androidOwners: [String: String] = [:]
        for app in apps {
            if let ios = app.ios {
                var ids = [("ios.bundleId", ios.appID)]
                if let clip = ios.appClipBundleId { ids.append(("ios.appClipBundleId", ios.teamId + "." + clip)) }
                for (field, appID) in ids {
                    let key = appID.lowercased()
                    if let other = iosOwners[key] {
                        throw .duplicateAppID(field: field, appID: appID, domain: domain, otherAppId: other)
                    }
                    iosOwners[key] = app.id
                }
            }
            if let android = app.android {
                if let other = androidOwners[android.packageName] {
                    throw .duplicateAppID(
                        field: "android.packageName", appID: android.packageName, domain: domain, otherAppId: other)
                }
                androidOwners[android.packageName] = app.id
            }
        }
        let everyAppEnabled = allEnabled(apps)
        let limit = AssociationDocument.maxBytes
        if let error = aasaSizeError(domain: domain, apps: apps, links: links, field: "domains") { throw error }
        if let links = AssociationRenderer.assetLinks(apps: everyAppEnabled), links.body.count > limit {
            throw .documentTooLarge(domain: domain, kind: .assetLinks, bytes: links.body.count, limit: limit)
        }
    }

    /// Everything to check when `app` is created or changed: its own fields, then, for
    /// each of its domains, the apps that would be attached after the save.
    ///
    /// - Parameters:
    ///   - app: the app as it would be stored.
    ///   - otherApps: every other app (an entry with `app.id` is ignored, so passing all apps is fine).
    ///   - links: the link claims of each of the app's domains (`StoreReader.linkClaims`);
    ///     a domain missing here has none.
    /// - Returns: the app to store (fingerprints normalised).
    public static func validateSave(_ app: MobileApp, otherApps: [MobileApp], links: [String: [LinkClaim]])
        throws(AssociationValidationError) -> MobileApp
    {
        let candidate = try validated(app)
        var seen: Set<String> = []
        for host in candidate.domains where seen.insert(host).inserted {
            let attached = otherApps.filter { $0.id != candidate.id && $0.domains.contains(host) }.sorted {
                $0.id < $1.id
            }
            try validateAttachments(domain: host, apps: attached + [candidate], links: links[host] ?? [])
        }
        return candidate
    }

    /// What to check when a link is created, changed or deleted on `domain`: with several
    /// iOS apps attached (disabled ones included), the AASA lists every link's key, so it
    /// must stay within `AssociationDocument.maxBytes` with the domain's `links` as they
    /// would be after the save (disabled links included). With one iOS app it claims every
    /// link with one pattern and no link can make it grow.
    ///
    /// - Parameters:
    ///   - apps: the apps attached to `domain`.
    ///   - field: the request field the error names (`domain` for the API, whose remedy is
    ///     another domain).
    public static func validateLinks(domain: String, apps: [MobileApp], links: [LinkClaim], field: String = "domain")
        throws(AssociationValidationError)
    {
        guard sizeDependsOnLinks(apps: apps) else { return }
        if let error = aasaSizeError(domain: domain, apps: apps, links: links, field: field) { throw error }
    }

    /// The error for an AASA of `apps` and `links`, every one enabled, over the limit, or
    /// nil. `tooManyLinkKeys` when the link keys push it over (the remedy is one domain
    /// per app), `documentTooLarge` when the apps alone do (attach fewer apps).
    static func aasaSizeError(domain: String, apps: [MobileApp], links: [LinkClaim], field: String)
        -> AssociationValidationError?
    {
        let limit = AssociationDocument.maxBytes
        let everyAppEnabled = allEnabled(apps)
        guard
            let aasa = AssociationRenderer.appleAppSiteAssociation(apps: everyAppEnabled, links: allEnabled(links)),
            aasa.body.count > limit
        else { return nil }
        if AssociationRenderer.claimsLinksByKey(apps: everyAppEnabled),
            let bare = AssociationRenderer.appleAppSiteAssociation(apps: everyAppEnabled, links: []),
            bare.isWithinSizeLimit
        {
            return .tooManyLinkKeys(field: field, domain: domain, bytes: aasa.body.count, limit: limit)
        }
        return .documentTooLarge(domain: domain, kind: .appleAppSiteAssociation, bytes: aasa.body.count, limit: limit)
    }

    /// True when links count towards the AASA's size limit on a domain with these apps:
    /// they would list several iOS apps once every one is enabled.
    public static func sizeDependsOnLinks(apps: [MobileApp]) -> Bool {
        AssociationRenderer.claimsLinksByKey(apps: allEnabled(apps))
    }

    static func allEnabled(_ apps: [MobileApp]) -> [MobileApp] {
        apps.map { app in
            var a = app
            a.enabled = true
            return a
        }
    }

    static func allEnabled(_ links: [LinkClaim]) -> [LinkClaim] {
        links.map { link in
            var l = link
            l.enabled = true
            return l
        }
    }
}
