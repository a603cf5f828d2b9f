import Model

/// The reads of the links. `link(host:key:)` is every visit's read: a loop's reader
/// answers it from its link cache first.
public protocol LinkReading: AnyObject {
    /// The link at `https://<host>/<key>` (exact, case-sensitive key), from the link cache.
    func link(host: String, key: String) throws(StoreError) -> Link?
    func link(id: String) throws(StoreError) -> Link?
    /// Links ordered by id; `after` is the last id of the previous page.
    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link]
    /// The claims of the links on `domain` that have a mobile payload, ordered by key:
    /// what a domain's apple-app-site-association needs when several iOS apps share it.
    func linkClaims(domain: String) throws(StoreError) -> [LinkClaim]
    /// A number that changes whenever a link on `host` may have been created, changed
    /// or deleted since it was last read (an association file built from the domain's
    /// links is current while it stays equal); nil when the reader keeps no such count,
    /// which means: read the links again every time.
    func linksVersion(host: String) -> UInt64?
    /// The link whose external id is `externalId` (issue 35).
    func link(externalId: String) throws(StoreError) -> Link?
    /// The links carrying the tag `tagId`, ordered by id; `after` as in `links(domain:...)`.
    func links(tagId: String, after: String?, limit: Int) throws(StoreError) -> [Link]
    /// The workspace's tags, by id (their creation order).
    func tags() throws(StoreError) -> [Tag]
    func tag(id: String) throws(StoreError) -> Tag?
}

/// The writes of the links, inside a write body: each one invalidates the link in every
/// loop's cache after the commit.
public protocol LinkWriting: LinkReading {
    func putLink(_ link: Link) throws(StoreError)
    func deleteLink(id: String) throws(StoreError) -> Bool
    /// Creates or replaces the tag `tag.id`; `.conflict(.tagName)` when another tag has its
    /// name ignoring case.
    func putTag(_ tag: Tag) throws(StoreError)
    /// Deletes the tag and takes it off its links (which the caches then forget).
    func deleteTag(id: String) throws(StoreError) -> Bool
}

extension LinkReading {
    /// Pages through `links(domain:after:limit:)`, for stores without a narrower query.
    public func linkClaims(domain: String) throws(StoreError) -> [LinkClaim] {
        var claims: [LinkClaim] = []
        var after: String?
        while true {
            let page = try links(domain: domain, after: after, limit: 1_000)
            claims += page.compactMap(\.claim)
            guard page.count == 1_000, let last = page.last else { break }
            after = last.id
        }
        return claims.sorted { $0.key < $1.key }
    }

    /// Pages through `links(domain:after:limit:)`, for stores without a narrower query.
    public func link(externalId: String) throws(StoreError) -> Link? {
        try everyLink().first { $0.options?.externalId == externalId }
    }

    public func links(tagId: String, after: String?, limit: Int) throws(StoreError) -> [Link] {
        Array(
            try everyLink().filter { ($0.options?.tagIds.contains(tagId) ?? false) && $0.id > (after ?? "") }.prefix(
                limit))
    }

    /// Stores without tags have none.
    public func tags() throws(StoreError) -> [Tag] { [] }
    public func tag(id: String) throws(StoreError) -> Tag? { nil }

    private func everyLink() throws(StoreError) -> [Link] {
        var all: [Link] = []
        var after: String?
        while true {
            let page = try links(domain: nil, after: after, limit: 1_000)
            all += page
            guard page.count == 1_000, let last = page.last else { break }
            after = last.id
        }
        return all
    }

    /// Readers without a link cache keep no count: callers read the links each time.
    public func linksVersion(host: String) -> UInt64? { nil }
}
