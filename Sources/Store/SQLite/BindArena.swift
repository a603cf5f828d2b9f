import CSQLite

/// Memory for the text and blob values of the writer's hot inserts, bound with
/// `SQLITE_STATIC` so that SQLite keeps a pointer instead of its own copy.
///
/// With `SQLITE_TRANSIENT` every such parameter costs SQLite a `free` of the
/// previous value, a `malloc` and a copy (with the Debian build's memory
/// statistics, each allocation also takes a global mutex): about 2 µs of the
/// writer's time per click and handoff (decision 0007). Here a value is copied
/// once into a chunk that stays put until the next `reset`.
///
/// Rules (`StaticInsert` follows them): reset before binding a statement, step
/// it, then reset it and clear its bindings before the arena is reset again,
/// so that no statement keeps a pointer into bytes the next one overwrites.
/// Writer thread only.
final class BindArena {
    static let chunkBytes = 16 << 10

    private var chunks: [UnsafeMutableRawPointer] = []
    /// Chunks larger than `chunkBytes` (one oversized value each), freed at reset.
    private var large: [UnsafeMutableRawPointer] = []
    private var chunk = 0
    private var used = 0

    init() {
        chunks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 16))
    }

    deinit {
        for c in chunks { c.deallocate() }
        for c in large { c.deallocate() }
    }

    /// Forgets every copy (the statements bound to them were cleared).
    func reset() {
        chunk = 0
        used = 0
        if !large.isEmpty {
            for c in large { c.deallocate() }
            large.removeAll()
        }
    }

    /// A copy of `bytes` that stays valid until `reset` (a valid pointer even when empty).
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let n = bytes.count
        if n > Self.chunkBytes {
            let big = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
            big.copyMemory(from: bytes.baseAddress!, byteCount: n)
            large.append(big)
            return UnsafeRawPointer(big)
        }
        if used + n > Self.chunkBytes {
            chunk += 1
            used = 0
            if chunk == chunks.count {
                chunks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 16))
            }
        }
        let target = chunks[chunk] + used
        if n > 0 { target.copyMemory(from: bytes.baseAddress!, byteCount: n) }
        used += n
        return UnsafeRawPointer(target)
    }
}
