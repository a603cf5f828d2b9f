import Core
import Model
import Store

/// Reads and writes over a `MemoryState`, with the SQLite store's semantics, for the
/// features the resolver uses (catalog, links, keys, visits, opens, signing keys,
/// idempotency records; the webhook events it enqueues, recorded); the others throw.
///
/// A reader (`local == nil`) always sees the last committed state; a
/// transaction works on its own copy, which the writer commits or drops.
final class MemoryAccess: StoreTransaction, @unchecked Sendable {
    private weak var store: InMemoryStore?
    var local: MemoryState?
    let now: Int64
    /// Set by the store's fault injection: the next `insertOpenEvent` throws it.
    var injectedFault: StoreError?

    init(store: InMemoryStore) {
        self.store = store
        self.local = nil
        self.now = 0
    }

    init(transaction state: MemoryState, now: Int64) {
        self.local = state
        self.now = now
    }

    var s: MemoryState { local ?? store!.committed }

    func mutate(_ body: (inout MemoryState) throws(StoreError) -> Void) throws(StoreError) {
        precondition(local != nil, "write through a reader")
        try body(&local!)
    }

    // MARK: reads

    func domain(_ hostname: String) throws(StoreError) -> Domain? { s.domains[hostname] }
    func domain(servedAt host: String) throws(StoreError) -> Domain? {
        s.domains[host] ?? s.domains.values.first { $0.alternateHostname == host }
    }
    func domains() throws(StoreError) -> [Domain] { s.domains.values.sorted { $0.hostname < $1.hostname } }
    func app(_ id: String) throws(StoreError) -> MobileApp? { s.apps[id] }
    func apps() throws(StoreError) -> [MobileApp] { s.apps.values.sorted { $0.id < $1.id } }
    func apps(attachedTo hostname: String) throws(StoreError) -> [MobileApp] {
        try apps().filter { $0.domains.contains(hostname) }
    }
    func link(host: String, key: String) throws(StoreError) -> Link? {
        s.links.values.first { $0.domain == host && $0.key == key }
    }
    func link(id: String) throws(StoreError) -> Link? { s.links[id] }
    func links(domain: String?, after: String?, limit: Int) throws(StoreError) -> [Link] {
        Array(
            s.links.values.filter { (domain == nil || $0.domain == domain) && (after == nil || $0.id > after!) }
                .sorted { $0.id < $1.id }.prefix(limit))
    }
    func secretKey(hash: [UInt8]) throws(StoreError) -> SecretKeyRecord? {
        s.secretKeys.values.first { $0.keyHash == hash }
    }
    func secretKeys() throws(StoreError) -> [SecretKeyRecord] { s.secretKeys.values.sorted { $0.id < $1.id } }
    func publishableKey(hash: [UInt8]) throws(StoreError) -> PublishableKeyRecord? {
        s.publishableKeys.values.first { $0.keyHash == hash }
    }
    func publishableKeys(app: String) throws(StoreError) -> [PublishableKeyRecord] {
        s.publishableKeys.values.filter { $0.appId == app }.sorted { $0.id < $1.id }
    }
    func click(id: String) throws(StoreError) -> Click? { s.clicks[id] }
    func handoff(tokenHash: [UInt8]) throws(StoreError) -> Handoff? { s.handoffs[tokenHash] }
    func openEvent(id: String) throws(StoreError) -> OpenEvent? { s.openEvents[id] }
    func openEvent(app: String, eventId: String) throws(StoreError) -> OpenEvent? {
        s.openEvents.values.first { $0.appId == app && $0.eventId == eventId }
    }
    func openEvent(app: String, idempotencyKeyHash: [UInt8]) throws(StoreError) -> OpenEvent? {
        s.openEvents.values.first { $0.appId == app && $0.idempotencyKeyHash == idempotencyKeyHash }
    }
    func appInstance(app: String, instance: String) throws(StoreError) -> AppInstance? {
        s.instances[MemoryState.instanceKey(app, instance)]
    }
    func probabilisticCandidates(
        app: String, domain: String, sourceHash: [UInt8], osVersion: String?, since: Int64, limit: Int
    ) throws(StoreError) -> [Click] {
        let state = s
        let found = state.clicks.values.filter { c in
            c.appId == app && c.domain == domain && c.sourceHash == sourceHash && c.at >= since && c.platform == .ios
                && state.consumedClicks[c.id] == nil && (osVersion == nil || c.osVersion == osVersion)
        }
        return Array(found.sorted { $0.at > $1.at }.prefix(max(0, limit)))
    }
    func signingKeys() throws(StoreError) -> [SigningKeyRecord] {
        s.signingKeys.values.sorted { $0.createdAt < $1.createdAt }
    }
    func idempotencyRecord(scope: String, keyHash: [UInt8]) throws(StoreError) -> IdempotencyRecord? {
        s.idempotency[scope + "\n" + SHA256.hex(keyHash)]
    }
    /// Neither the apps' counts nor the console's rows are kept here: their reads and writes
    /// fail. (A link's counts are counted from its rows: `MemoryAccess+LinkAnalytics`.)
    func analytics(app: String, since: Int64, recent: Int) throws(StoreError) -> AppAnalytics {
        throw Self.notKept("counts")
    }
    func searchLinks(keyPrefix: String, domain: String?, after: (key: String, id: String)?, limit: Int)
        throws(StoreError) -> [Link]
    { throw Self.notKept("the console's reads") }
    func recentClicks(link: String, limit: Int) throws(StoreError) -> [Click] {
        throw Self.notKept("the console's reads")
    }
    func recentOpenEvents(link: String, limit: Int) throws(StoreError) -> [OpenEvent] {
        throw Self.notKept("the console's reads")
    }
    func workspaceActivity(fromDay: Int64, throughDay: Int64, topLinks: Int) throws(StoreError) -> WorkspaceActivity {
        throw Self.notKept("the console's reads")
    }
    func consoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        throw Self.notKept("console sessions")
    }
    func putConsoleSession(_ session: ConsoleSession) throws(StoreError) { throw Self.notKept("console sessions") }
    func deleteConsoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession? {
        throw Self.notKept("console sessions")
    }

    /// What a read or write of a feature this store does not keep throws: it keeps what the
    /// resolver reads and writes, checked by the store's contract suites of those features
    /// (`MemoryContractTests`), and nothing it would have to make up.
    static func notKept(_ feature: String) -> StoreError {
        .backend(code: -1, message: "\(feature): not kept by the in-memory store")
    }

    // MARK: writes

    func insertClick(_ click: Click) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.clicks[click.id] != nil { throw .conflict(.unnamed) }
            st.clicks[click.id] = click
        }
    }
    func insertHandoff(_ handoff: Handoff) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.handoffs[handoff.tokenHash] != nil { throw .conflict(.handoff) }
            st.handoffs[handoff.tokenHash] = handoff
        }
    }
    func claimHandoff(tokenHash: [UInt8], instance: String, openId: String) throws(StoreError) -> Bool {
        var result = false
        try mutate { st in
            guard var h = st.handoffs[tokenHash] else { return }
            if h.claimedByInstance == nil {
                h.claimedByInstance = instance
                h.claimedByOpen = openId
                st.handoffs[tokenHash] = h
                result = true
            } else {
                result = h.claimedByInstance == instance
            }
        }
        return result
    }
    func consumeClick(id: String, openId: String) throws(StoreError) -> Bool {
        var result = false
        try mutate { st in
            guard st.clicks[id] != nil, st.consumedClicks[id] == nil else { return }
            st.consumedClicks[id] = openId
            result = true
        }
        return result
    }
    func insertOpenEvent(_ event: OpenEvent) throws(StoreError) {
        if let fault = injectedFault {
            injectedFault = nil
            throw fault
        }
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.openEvents[event.id] != nil { throw .conflict(.openId) }
            if st.openEvents.values.contains(where: { $0.appId == event.appId && $0.eventId == event.eventId }) {
                throw .conflict(.eventId)
            }
            if let k = event.idempotencyKeyHash,
                st.openEvents.values.contains(where: { $0.appId == event.appId && $0.idempotencyKeyHash == k })
            {
                throw .conflict(.idempotencyKey)
            }
            st.openEvents[event.id] = event
        }
    }
    /// Like SQLite's upsert: `createdAt` keeps its first value, `firstOpenId` once set never changes.
    func upsertAppInstance(_ instance: AppInstance) throws(StoreError) {
        try mutate { st in
            let key = MemoryState.instanceKey(instance.appId, instance.instanceId)
            var next = instance
            if let old = st.instances[key] {
                next.createdAt = old.createdAt
                next.firstOpenId = old.firstOpenId ?? instance.firstOpenId
            }
            st.instances[key] = next
        }
    }
    func putDomain(_ domain: Domain) throws(StoreError) { try mutate { $0.domains[domain.hostname] = domain } }
    func deleteDomain(_ hostname: String) throws(StoreError) -> Bool {
        var found = false
        try mutate { found = $0.domains.removeValue(forKey: hostname) != nil }
        return found
    }
    func putApp(_ app: MobileApp) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if app.domains.contains(where: { st.domains[$0] == nil }) { throw .missingReference(.domain) }
            st.apps[app.id] = app
        }
    }
    func deleteApp(_ id: String) throws(StoreError) -> [Link]? {
        var found = false
        var unlinked: [Link] = []
        try mutate { st in
            found = st.apps.removeValue(forKey: id) != nil
            for (k, var key) in st.publishableKeys where key.appId == id && key.revokedAt == nil {
                key.revokedAt = now
                st.publishableKeys[k] = key
            }
            for (k, var link) in st.links where link.mobile?.appId == id {
                link.mobile = nil
                st.links[k] = link
                unlinked.append(link)
            }
        }
        return found ? unlinked : nil
    }
    /// A key is unique per domain (`.conflict(.linkKey)`), and its domain and app exist, as
    /// on the real stores.
    func putLink(_ link: Link) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.domains[link.domain] == nil { throw .missingReference(.domain) }
            if let app = link.mobile?.appId, st.apps[app] == nil { throw .missingReference(.app) }
            if st.links.values.contains(where: { $0.domain == link.domain && $0.key == link.key && $0.id != link.id }) {
                throw .conflict(.linkKey)
            }
            st.links[link.id] = link
        }
    }
    func deleteLink(id: String) throws(StoreError) -> Bool {
        var found = false
        try mutate { found = $0.links.removeValue(forKey: id) != nil }
        return found
    }

    /// The resolver's tests keep no tags.
    func putTag(_ tag: Tag) throws(StoreError) {}
    func deleteTag(id: String) throws(StoreError) -> Bool { false }
    func putSecretKey(_ key: SecretKeyRecord) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.secretKeys.values.contains(where: { $0.keyHash == key.keyHash && $0.id != key.id }) {
                throw .conflict(.secretKey)
            }
            st.secretKeys[key.id] = key
        }
    }
    func putPublishableKey(_ key: PublishableKeyRecord) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            if st.apps[key.appId] == nil { throw .missingReference(.app) }
            if st.publishableKeys.values.contains(where: { $0.keyHash == key.keyHash && $0.id != key.id }) {
                throw .conflict(.publishableKey)
            }
            st.publishableKeys[key.id] = key
        }
    }
    func putSigningKey(_ key: SigningKeyRecord) throws(StoreError) { try mutate { $0.signingKeys[key.kid] = key } }
    /// An answer is stored once (`.conflict(.idempotencyRecord)` after), as on the real stores.
    func putIdempotencyRecord(_ record: IdempotencyRecord) throws(StoreError) {
        try mutate { (st: inout MemoryState) throws(StoreError) in
            let key = record.scope + "\n" + SHA256.hex(record.keyHash)
            if st.idempotency[key] != nil { throw .conflict(.idempotencyRecord) }
            st.idempotency[key] = record
        }
    }
}
