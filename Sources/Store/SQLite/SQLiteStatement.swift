import CSQLite
import Model

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before the call returns.
/// The C macro is a cast of -1 and cannot be imported.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One cached prepared statement. Binding indexes and column indexes are as in
/// SQLite (binding from 1, columns from 0). Owned by its connection's cache: a
/// statement is never finalized while a caller holds it.
struct SQLiteStatement {
    let handle: OpaquePointer

    // MARK: binding

    @inline(__always) func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always) func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    @inline(__always) func bind(_ index: Int32, _ value: Bool) {
        sqlite3_bind_int(handle, index, value ? 1 : 0)
    }

    @inline(__always) func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { bytes in
            if bytes.isEmpty {
                // A nil base address would bind NULL instead of "".
                sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            } else {
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    _ = sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), sqliteTransient)
                }
            }
        }
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: [UInt8]) {
        if value.isEmpty {
            sqlite3_bind_zeroblob(handle, index, 0)
        } else {
            value.withUnsafeBytes { raw in
                _ = sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), sqliteTransient)
            }
        }
    }

    func bind(_ index: Int32, _ value: [UInt8]?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// JSON text columns are written as UTF-8 bytes bound as TEXT.
    func bindText(_ index: Int32, bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            if raw.isEmpty {
                sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            } else {
                let chars = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                sqlite3_bind_text(handle, index, chars, Int32(raw.count), sqliteTransient)
            }
        }
    }

    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    // MARK: columns

    @inline(__always) func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    @inline(__always) func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inline(__always) func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    @inline(__always) func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    func optionalInt64(_ column: Int32) -> Int64? {
        isNull(column) ? nil : sqlite3_column_int64(handle, column)
    }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        isNull(column) ? nil : text(column)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func optionalBlob(_ column: Int32) -> [UInt8]? {
        isNull(column) ? nil : blob(column)
    }

    /// The column's bytes without copying, valid until the next step or reset.
    func withBytes<R, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? pointer : nil, count: count))
    }
}
