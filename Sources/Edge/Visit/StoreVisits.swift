import Model
import Store

/// The visits' store in service: each loop's reader, and the writer's group commit.
struct StoreVisits: VisitStore {
    let store: any Store

    func link(host: String, key: String, loop: Int) throws(StoreError) -> Link? {
        try store.reader(loop: loop).link(host: host, key: key)
    }

    func app(_ id: String, loop: Int) throws(StoreError) -> MobileApp? { try store.reader(loop: loop).app(id) }

    func inAppEscapes(loop: Int) -> InAppEscapeSwitches? {
        guard let switches = try? store.reader(loop: loop).inAppEscapeSettings().switches, !switches.isEmpty else {
            return nil
        }
        return switches
    }

    func write(
        _ click: consuming Click, handoff: consuming Handoff?,
        completion: @escaping @Sendable (Result<Void, StoreError>) -> Void
    ) {
        let click = consume click
        let handoff = consume handoff
        store.write(
            { tx in
                try tx.insertClick(click)
                if let handoff { try tx.insertHandoff(handoff) }
            }, completion: completion)
    }
}
