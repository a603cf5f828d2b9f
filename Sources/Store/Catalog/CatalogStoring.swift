import Model

/// The reads of the catalog: domains and the mobile apps attached to them. A loop's
/// reader answers them from the catalog snapshot (`ReaderCache`), without a query.
public protocol CatalogReading: AnyObject {
    func domain(_ hostname: String) throws(StoreError) -> Domain?
    /// The domain whose hostname, else whose alternate hostname, is `host` (decision 0033
    /// §4): what the edge serves there.
    func domain(servedAt host: String) throws(StoreError) -> Domain?
    func domains() throws(StoreError) -> [Domain]
    func app(_ id: String) throws(StoreError) -> MobileApp?
    func apps() throws(StoreError) -> [MobileApp]
    /// The apps attached to a domain, for association documents.
    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp]
}

/// The writes of the catalog, inside a write body: each one makes the writer rebuild the
/// catalog snapshot after the commit.
public protocol CatalogWriting: CatalogReading {
    func putDomain(_ domain: Domain) throws(StoreError)
    /// Creates a domain; `.conflict(.domain)` when the hostname is taken (`domain_taken`).
    func insertDomain(_ domain: Domain) throws(StoreError)
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool
    func putApp(_ app: MobileApp) throws(StoreError)
    /// Deletes the app, revokes its publishable keys, detaches its domains and
    /// turns its links into plain web links. Returns those links as they now are (the
    /// caller reports them: `link.updated`), nil (and nothing done) for an unknown app.
    func deleteApp(_ id: String) throws(StoreError) -> [Link]?
}

extension CatalogWriting {
    /// Check-then-put, for transactions that do not implement the insert themselves.
    public func insertDomain(_ domain: Domain) throws(StoreError) {
        if try self.domain(domain.hostname) != nil { throw .conflict(.domain) }
        try putDomain(domain)
    }
}
