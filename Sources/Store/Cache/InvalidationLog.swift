import Model
import Synchronization

/// How the writer tells every reader what changed, with one atomic load per read
/// on the hot path.
///
/// The writer (one thread), after a batch commits and before it calls the
/// batch's completions, appends the changed links (`.link(host, key)`), or
/// `.all`, and the new `CatalogSnapshot` when domains or apps changed, under the
/// lock, then stores the new `sequence` (release). A reader keeps the sequence
/// it has applied; each read loads `sequence` (acquire) and only when it moved
/// takes the lock to copy the entries after its own and a strong reference to
/// the current catalog.
///
/// Why this is safe without hazard pointers or epochs: readers never
/// dereference a pointer loaded outside the lock. The catalog reference is
/// copied (retained) under the lock and then owned by the reader's thread, so
/// the writer may replace it at any time; ARC frees an old snapshot when the
/// last reader moved on. And because the sequence is stored before the writes'
/// completions run, any read that starts after a completion returned sees the
/// change (the caller's own hand-off from the writer thread orders it).
///
/// The log keeps at most `capacity` entries; a reader that fell further behind
/// (an idle loop) is told to clear its whole link cache instead.
final class InvalidationLog: Sendable {
    enum Entry: Sendable, Equatable {
        case link(host: String, key: String)
        case all
    }

    /// What a reader must do to catch up.
    struct Changes {
        var sequence: UInt64
        var clearAll: Bool
        var links: [(host: String, key: String)]
        var catalog: CatalogSnapshot
    }

    /// The number of the newest entry (0: none yet).
    let sequence = Atomic<UInt64>(0)
    /// `Store.publishableKeysVersion`.
    let keysVersion = Atomic<UInt64>(0)
    private let state: Mutex<State>
    private let capacity: Int

    private struct State {
        var entries: [Entry] = []
        /// Sequence number of `entries[0]`.
        var firstSequence: UInt64 = 1
        var catalog: CatalogSnapshot
    }

    init(catalog: CatalogSnapshot, capacity: Int = 65_536) {
        state = Mutex(State(catalog: catalog))
        self.capacity = max(capacity, 16)
    }

    /// Writer side: publishes a batch's changes at once.
    func publish(_ newEntries: [Entry], catalog newCatalog: CatalogSnapshot?) {
        guard !newEntries.isEmpty || newCatalog != nil else { return }
        state.withLock { s in
            if let newCatalog { s.catalog = newCatalog }
            // A catalog change bumps the sequence too, through an entry that clears nothing.
            s.entries.append(contentsOf: newEntries.isEmpty ? [.link(host: "", key: "")] : newEntries)
            if s.entries.count > capacity {
                let drop = s.entries.count - capacity / 2
                s.entries.removeFirst(drop)
                s.firstSequence += UInt64(drop)
            }
            sequence.store(s.firstSequence + UInt64(s.entries.count) - 1, ordering: .releasing)
        }
    }

    /// The current catalog, for code that holds no reader (the writer, tests).
    var currentCatalog: CatalogSnapshot { state.withLock { $0.catalog } }

    /// Reader side, slow path: everything after `seen`.
    func changes(since seen: UInt64) -> Changes {
        state.withLock { s in
            let last = s.firstSequence + UInt64(s.entries.count) - 1
            var result = Changes(sequence: last, clearAll: false, links: [], catalog: s.catalog)
            if seen + 1 < s.firstSequence {
                result.clearAll = true
                return result
            }
            var index = Int(seen + 1 - s.firstSequence)
            while index < s.entries.count {
                switch s.entries[index] {
                case .all:
                    result.clearAll = true
                    result.links.removeAll()
                case .link(let host, let key):
                    if !result.clearAll && !host.isEmpty { result.links.append((host, key)) }
                }
                index += 1
            }
            return result
        }
    }
}
