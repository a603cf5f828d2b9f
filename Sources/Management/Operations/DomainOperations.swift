import Core
import Model
import Store

/// `/api/v1/domains` and `/api/v1/domains/{hostname}`.
enum DomainOperations {
    static func list(_ call: ManagementCall, _ reader: any CatalogReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let page = try Pagination(call.query)
        let (items, next) = page.page(try reader.domains()) { $0.hostname }
        return ManagementAnswer(
            200, ResourceJSON.page(items.map { json($0, env) }, nextCursor: next))
    }

    static func get(_ call: ManagementCall, _ reader: any CatalogReading, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        ManagementAnswer(200, json(try existing(call.parameter("hostname"), reader), env))
    }

    static func create(_ call: ManagementCall, _ tx: any CatalogWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let domain = try DomainInput.decode(call.bodyObject, existing: nil, now: call.now)
        return ManagementAnswer(201, json(try CatalogWriter.createDomain(domain, tx), env))
    }

    static func update(_ call: ManagementCall, _ tx: any CatalogWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let current = try existing(call.parameter("hostname"), tx)
        let merged = MergePatch.apply(call.body ?? [], to: DomainInput.writable(current), nested: [])
        let domain = try DomainInput.decode(merged, existing: current, now: call.now)
        try CatalogWriter.updateDomain(domain, tx)
        return ManagementAnswer(200, json(domain, env))
    }

    /// Deleting a domain deletes its links and detaches it from every Mobile App.
    static func delete(_ call: ManagementCall, _ tx: any CatalogWriting, _ env: ManagementEnvironment) throws
        -> ManagementAnswer
    {
        let host = try existing(call.parameter("hostname"), tx).hostname
        _ = try tx.deleteDomain(host)
        return ManagementAnswer(200, ResourceJSON.deleted("hostname", host))
    }

    static func existing(_ hostname: String, _ reader: any CatalogReading) throws -> Domain {
        guard let domain = try reader.domain(hostname) else {
            throw ManagementError.notFound("No domain \(hostname).")
        }
        return domain
    }

    static func json(_ d: Domain, _ env: ManagementEnvironment) -> JSONValue {
        ResourceJSON.domain(d, httpsActive: env.httpsActive(d.hostname), certificate: env.certificate(d.hostname))
    }
}
