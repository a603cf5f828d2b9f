import Model
import Store

@testable import Edge

/// The visits' store, in memory; `away`: every read fails as a database that is down does.
final class MemoryVisitStore: VisitStore, @unchecked Sendable {
    var links: [String: Link] = [:]
    var apps: [String: MobileApp] = [:]
    var away = false
    /// The workspace's switches of the in-app escapes.
    var workspaceEscapes: InAppEscapeSwitches?
    private(set) var linkReads = 0
    private(set) var written: [(click: Click, handoff: Handoff?)] = []

    func link(host: String, key: String, loop: Int) throws(StoreError) -> Link? {
        linkReads += 1
        if away { throw .backend(code: 1, message: "the database is away") }
        return links[host + "/" + key]
    }

    func app(_ id: String, loop: Int) throws(StoreError) -> MobileApp? {
        if away { throw .backend(code: 1, message: "the database is away") }
        return apps[id]
    }

    func inAppEscapes(loop: Int) -> InAppEscapeSwitches? { workspaceEscapes }

    func write(
        _ click: consuming Click, handoff: consuming Handoff?,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        written.append((click, handoff))
    }
}
