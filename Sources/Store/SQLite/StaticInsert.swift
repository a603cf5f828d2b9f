import CSQLite
import Model

/// Binds the parameters of one execution of a hot insert with `SQLITE_STATIC`,
/// each text or blob copied once into the writer's `BindArena`. Made by
/// `SQLiteConnection.executeStatic`, which clears the bindings after the step.
struct StaticInsert {
    let statement: SQLiteStatement
    let arena: BindArena

    /// `SQLITE_STATIC`: SQLite keeps the pointer, the arena keeps the bytes.
    private static let keep: sqlite3_destructor_type? = nil

    func text(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            let copy = arena.copy(UnsafeRawBufferPointer(bytes)).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(statement.handle, index, copy, Int32(bytes.count), Self.keep)
        }
    }

    func text(_ index: Int32, _ value: String?) {
        if let value { text(index, value) } else { sqlite3_bind_null(statement.handle, index) }
    }

    /// UTF-8 bytes (JSON) bound as TEXT.
    func text(_ index: Int32, bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            let copy = arena.copy(raw).assumingMemoryBound(to: CChar.self)
            _ = sqlite3_bind_text(statement.handle, index, copy, Int32(raw.count), Self.keep)
        }
    }

    func blob(_ index: Int32, _ value: [UInt8]?) {
        guard let value else {
            sqlite3_bind_null(statement.handle, index)
            return
        }
        value.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(statement.handle, index, arena.copy(raw), Int32(raw.count), Self.keep)
        }
    }

    @inline(__always) func int(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement.handle, index, value) }

    func int(_ index: Int32, _ value: Int64?) {
        if let value { int(index, value) } else { null(index) }
    }

    @inline(__always) func null(_ index: Int32) { sqlite3_bind_null(statement.handle, index) }
}
