import Store

extension AssociationValidator {
    /// Checks the set of apps that would be attached to `domain`: no app ID twice
    /// (`TEAMID.bundle` compared case-insensitively, as Apple treats bundle IDs; App
    /// Clip IDs included; Android package names compared exactly), and both documents
    /// within `AssociationDocument.maxBytes`.
    ///
    /// Apps are taken in the given order; a collision is reported against the later
    /// app, so put the app being saved last. Disabled apps count as if enabled, so that
    /// re-enabling an app can never produce a duplicate or an oversized document.
    public static func validateAttachments(domain: String, apps: [MobileApp]) throws(AssociationValidationError) {
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
        let everyAppEnabled = apps.map { app -> MobileApp in
            var a = app
            a.enabled = true
            return a
        }
        let limit = AssociationDocument.maxBytes
        if let aasa = AssociationRenderer.appleAppSiteAssociation(apps: everyAppEnabled), aasa.body.count > limit {
            throw .documentTooLarge(
                domain: domain, kind: .appleAppSiteAssociation, bytes: aasa.body.count, limit: limit)
        }
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
    /// - Returns: the app to store (fingerprints normalised).
    public static func validateSave(_ app: MobileApp, otherApps: [MobileApp]) throws(AssociationValidationError)
        -> MobileApp
    {
        let candidate = try validated(app)
        var seen: Set<String> = []
        for host in candidate.domains where seen.insert(host).inserted {
            let attached = otherApps.filter { $0.id != candidate.id && $0.domains.contains(host) }.sorted {
                $0.id < $1.id
            }
            try validateAttachments(domain: host, apps: attached + [candidate])
        }
        return candidate
    }
}
