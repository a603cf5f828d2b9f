import CSQLite
import Model

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

    private struct State {
        var chunks: [UnsafeMutableRawPointer] = []
        /// Chunks larger than `chunkBytes` (one oversized value each), freed at reset.
        var large: [UnsafeMutableRawPointer] = []
        var chunk = 0
        var used = 0
    }

    /// Behind a pointer rather than in stored `var`s: a class's stored properties get a
    /// dynamic exclusivity check on every access, ten per insert here, and this object
    /// never leaves the writer thread.
    private let state: UnsafeMutablePointer<State>

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.chunks.append(UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 16))
    }

    deinit {
        for c in state.pointee.chunks { c.deallocate() }
        for c in state.pointee.large { c.deallocate() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Forgets every copy (the statements bound to them were cleared).
    func reset() {
        state.pointee.chunk = 0
        state.pointee.used = 0
        if !state.pointee.large.isEmpty {
            for c in state.pointee.large { c.deallocate() }
            state.pointee.large.removeAll()
        }
    }

    /// A copy of `bytes` that stays valid until `reset` (a valid pointer even when empty).
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let n = bytes.count
        if n > Self.chunkBytes {
            let big = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
            big.copyMemory(from: bytes.baseAddress!, byteCount: n)
            state.pointee.large.append(big)
            return UnsafeRawPointer(big)
        }
        if state.pointee.used + n > Self.chunkBytes {
            state.pointee.chunk += 1
            state.pointee.used = 0
            if state.pointee.chunk == state.pointee.chunks.count {
                state.pointee.chunks.append(
                    UnsafeMutableRawPointer.allocate(byteCount: Self.chunkBytes, alignment: 16))
            }
        }
        let target = state.pointee.chunks[state.pointee.chunk] + state.pointee.used
        if n > 0 { target.copyMemory(from: bytes.baseAddress!, byteCount: n) }
        state.pointee.used += n
        return UnsafeRawPointer(target)
    }
}
