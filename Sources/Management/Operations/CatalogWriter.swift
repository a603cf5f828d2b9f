import Association
import Core
import Model
import Store

/// The checks that need the store, and the writes, shared by the workspace API and
/// `apply`: run inside one store transaction, so reads see the writes before them and
/// a refused request writes nothing. Field names are the API's; `apply` prefixes them.
enum CatalogWriter {
    static func createDomain(_ domain: Domain, _ tx: any CatalogWriting) throws -> Domain {
        // The test clock runs on test names alone (decision 0026): no real domain joins it.
        if Clock.backMilliseconds > 0, !TestHostnames.isReserved(domain.hostname) {
            throw ManagementError.invalid(
                "hostname", "must be a test name (*.test, *.example, example.com) while the clock is set back")
        }
        // Another domain's alternate hostname is served as that domain: taken too.
        if try tx.domain(servedAt: domain.hostname) != nil { throw ManagementError.domainTaken(domain.hostname) }
        try checkAlternate(domain, tx)
        try tx.insertDomain(domain)
        return domain
    }

    /// Stores a change of an existing domain, its alternate hostname checked.
    static func updateDomain(_ domain: Domain, _ tx: any CatalogWriting) throws {
        try checkAlternate(domain, tx)
        try tx.putDomain(domain)
    }

    /// A domain's alternate hostname is no other domain's hostname or alternate (decision
    /// 0033 §4): 422 `validation_error` on `alternateHostname`, as a broken rule of the
    /// request (the other domain may be changed or deleted first), rather than 409.
    static func checkAlternate(_ domain: Domain, _ tx: any CatalogWriting) throws {
        guard let alternate = domain.alternateHostname, let other = try tx.domain(servedAt: alternate),
            other.hostname != domain.hostname
        else { return }
        throw ManagementError.invalid(
            "alternateHostname", "is already the hostname or alternate hostname of the domain \(other.hostname)")
    }

    /// Checks that every attached domain exists and that the association files stay
    /// valid (`AssociationValidator.validateSave`: no app ID twice per domain, 128 KiB
    /// with the domain's links), then stores the app. Returns the app as stored
    /// (fingerprints normalised).
    static func saveApp(_ app: MobileApp, _ tx: any CatalogWriting & LinkReading) throws -> MobileApp {
        var problems = FieldProblems()
        for (i, host) in app.domains.enumerated() where try tx.domain(host) == nil {
            problems.add("domains[\(i)]", "names no domain (\(host)); create the domain first")
        }
        try problems.check()
        let others = try tx.apps()
        var links: [String: [LinkClaim]] = [:]
        for host in app.domains where links[host] == nil { links[host] = try tx.linkClaims(domain: host) }
        let stored: MobileApp
        do throws(AssociationValidationError) {
            stored = try AssociationValidator.validateSave(app, otherApps: others, links: links)
        } catch {
            throw ManagementError.invalid(error.field, error.message)
        }
        try tx.putApp(stored)
        return stored
    }

    /// Checks the domain and the app exist and the key is free on the domain (a
    /// generated one when empty), then stores the link, and refuses it (the caller's
    /// savepoint rolls the write back) when it would push the domain's AASA over
    /// 128 KiB: with several iOS apps on the domain, every app link's key is listed
    /// (`checkLinkClaims`). `apply` passes `checkAssociation: false` and checks each
    /// domain once, after all its links, rather than once per link.
    ///
    /// `previous`: the link as stored before an update; what the update does not change
    /// is not checked again (its app may have gone, its domain's association file may
    /// have grown past the limit since), so that a link can always be disabled.
    static func saveLink(
        _ link: Link, _ tx: any CatalogReading & LinkWriting & WebhookWriting & TransactionClock,
        checkAssociation: Bool = true, previous: Link? = nil
    )
        throws -> Link
    {
        var problems = FieldProblems()
        if link.domain != previous?.domain, try tx.domain(link.domain) == nil {
            problems.add("domain", "names no domain (\(link.domain)); create the domain first")
        }
        if let mobile = link.mobile, mobile.appId != previous?.mobile?.appId, try tx.app(mobile.appId) == nil {
            problems.add("mobile.appId", "names no Mobile App (\(mobile.appId))")
        }
        let tagIds = link.options?.tagIds ?? []
        for (i, tagId) in tagIds.enumerated() where !(previous?.options?.tagIds.contains(tagId) ?? false) {
            if try tx.tag(id: tagId) == nil { problems.add("tagIds[\(i)]", "names no tag (\(tagId))") }
        }
        try problems.check()
        if let externalId = link.options?.externalId, externalId != previous?.options?.externalId,
            let other = try tx.link(externalId: externalId), other.id != link.id
        {
            throw ManagementError.externalIdTaken(linkId: other.id)
        }
        var out = link
        if out.key.isEmpty {
            out.key = try freeKey(domain: link.domain, tx)
        } else if let other = try tx.link(host: link.domain, key: link.key), other.id != link.id {
            throw ManagementError.aliasTaken(domain: link.domain, key: link.key)
        }
        try tx.putLink(out)
        // Only a link with an app can add a key; the write is checked as stored, so a
        // changed key or domain counts as it will be served.
        // What the association file lists of a link: its key, app and being enabled. An
        // update that changes none of them, or only disables the link, cannot grow it.
        let claimMayGrow =
            previous.map {
                $0.domain != out.domain || $0.key != out.key || $0.mobile?.appId != out.mobile?.appId
                    || (!$0.enabled && out.enabled)
            } ?? true
        if checkAssociation && out.mobile != nil && claimMayGrow { try checkLinkClaims(domain: out.domain, tx) }
        let event = WebhookEvent(
            type: previous == nil ? .linkCreated : .linkUpdated, appId: out.mobile?.appId, linkId: out.id,
            at: tx.now, data: ResourceJSON.link(out))
        try tx.enqueueWebhookEvent(event)
        // A link that left an app: the endpoints that follow that app hear of it too. The
        // same event again under the app it left: an endpoint both filters reach keeps one
        // row (the outbox's key is the endpoint and the event's id).
        if let left = previous?.mobile?.appId, left != out.mobile?.appId {
            var alsoLeft = event
            alsoLeft.appId = left
            try tx.enqueueWebhookEvent(alsoLeft)
        }
        return out
    }

    /// Refuses (`validation_error` on `field`) when the AASA of `domain`, which lists
    /// each link's key once several iOS apps share it, is over 128 KiB with the links
    /// as they now are in `tx`.
    static func checkLinkClaims(domain: String, _ tx: any CatalogReading & LinkReading, field: String = "domain") throws
    {
        let apps = try tx.apps(attachedTo: domain)
        guard AssociationValidator.sizeDependsOnLinks(apps: apps) else { return }
        let links = try tx.linkClaims(domain: domain)
        do throws(AssociationValidationError) {
            try AssociationValidator.validateLinks(domain: domain, apps: apps, links: links, field: field)
        } catch {
            throw ManagementError.invalid(error.field, error.message)
        }
    }

    private static func freeKey(domain: String, _ tx: any LinkReading) throws -> String {
        for _ in 0..<16 {
            let key = LinkKeyRule.generate()
            if !LinkKeyRule.isReserved(key), try tx.link(host: domain, key: key) == nil { return key }
        }
        throw ManagementError.internalError
    }

    /// A new publishable key for `app`: stored hashed, returned in clear once.
    static func issuePublishableKey(app: String, now: Int64, _ tx: any KeyWriting) throws -> (
        String, PublishableKeyRecord
    ) {
        let key = KeyMaterial.newPublishableKey()
        let record = PublishableKeyRecord(
            id: "pk_" + ULID.make(), appId: app, keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key),
            createdAt: now)
        try tx.putPublishableKey(record)
        return (key, record)
    }

    /// Rotation: every key still without an end now ends after the app's overlap; a new
    /// key is issued. Keys already winding down keep their end. Returns the new key and
    /// the end given to the previous ones (nil when there was no open-ended key).
    static func rotate(app: MobileApp, now: Int64, _ tx: any KeyWriting) throws -> (
        String, PublishableKeyRecord, Int64?
    ) {
        let until = now + Int64(app.keyOverlapSeconds) * 1_000
        var ended: Int64?
        for var record in try tx.publishableKeys(app: app.id) where record.isUsable(at: now) && record.expiresAt == nil
        {
            record.expiresAt = until
            try tx.putPublishableKey(record)
            ended = until
        }
        let (key, record) = try issuePublishableKey(app: app.id, now: now, tx)
        return (key, record, ended)
    }
}
