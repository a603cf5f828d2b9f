/// A hashed timing wheel of connection deadlines, one per loop.
///
/// Entries are lazy: a connection is filed under the slot of the deadline it had
/// when it was filed. When a slot comes due, each entry is checked against the
/// connection's current deadline: expired ones are reported, later ones are
/// filed again, stale ones (connection gone or rescheduled earlier) are dropped.
/// This keeps the hot path to an integer compare instead of removals.
struct TimerWheel {
    struct Entry: Equatable {
        var fd: Int32
        var generation: UInt32
        var deadline: UInt64
    }

    let slotMilliseconds: UInt64
    private var slots: [[Entry]]
    /// The slot time (ms / slotMilliseconds) processed last.
    private var cursor: UInt64

    init(slotMilliseconds: UInt64 = 100, slotCount: Int = 1024, now: UInt64) {
        self.slotMilliseconds = slotMilliseconds
        self.slots = Array(repeating: [], count: slotCount)
        self.cursor = now / slotMilliseconds
    }

    var count: Int { slots.reduce(0) { $0 + $1.count } }

    mutating func schedule(_ entry: Entry) {
        // A deadline in the past goes into the next slot to be processed.
        let tick = max(entry.deadline / slotMilliseconds, cursor + 1)
        slots[Int(tick % UInt64(slots.count))].append(entry)
    }

    /// Collects the entries whose slot is due at `now`. Entries whose deadline lies a
    /// full revolution or more ahead stay in place.
    mutating func advance(now: UInt64) -> [Entry] {
        var due: [Entry] = []
        let target = now / slotMilliseconds
        guard target > cursor else { return due }
        let steps = min(target - cursor, UInt64(slots.count))
        for step in 1...steps {
            let tick = cursor + step
            let index = Int(tick % UInt64(slots.count))
            if slots[index].isEmpty { continue }
            let entries = slots[index]
            slots[index].removeAll(keepingCapacity: true)
            for e in entries {
                if e.deadline / slotMilliseconds > target {
                    slots[index].append(e)  // a later revolution
                } else {
                    due.append(e)
                }
            }
        }
        cursor = target
        return due
    }
}
