import CPostgreSQL

/// The rows of one statement's answer, in binary format; freed with the value.
/// Column types are the schema's: `int8`, `bool`, `text`, `bytea`.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows changed by an INSERT, UPDATE or DELETE.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    private func raw(_ row: Int, _ column: Int) -> UnsafeRawBufferPointer {
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        return UnsafeRawBufferPointer(start: PQgetvalue(handle, Int32(row), Int32(column)), count: length)
    }

    func int(_ row: Int, _ column: Int) -> Int64 {
        let r = raw(row, column)
        switch r.count {
        case 8: return Int64(bigEndian: r.loadUnaligned(as: Int64.self))
        case 4: return Int64(Int32(bigEndian: r.loadUnaligned(as: Int32.self)))
        case 2: return Int64(Int16(bigEndian: r.loadUnaligned(as: Int16.self)))
        default: return 0
        }
    }

    func optionalInt(_ row: Int, _ column: Int) -> Int64? { isNull(row, column) ? nil : int(row, column) }

    func bool(_ row: Int, _ column: Int) -> Bool { raw(row, column).first == 1 }

    func text(_ row: Int, _ column: Int) -> String { String(decoding: raw(row, column), as: UTF8.self) }

    func optionalText(_ row: Int, _ column: Int) -> String? { isNull(row, column) ? nil : text(row, column) }

    func bytes(_ row: Int, _ column: Int) -> [UInt8] { Array(raw(row, column)) }

    func optionalBytes(_ row: Int, _ column: Int) -> [UInt8]? { isNull(row, column) ? nil : bytes(row, column) }

    /// The bytes of a column without copying, for decoders (valid while the result lives).
    func withBytes<R, E: Error>(_ row: Int, _ column: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E)
        -> R
    {
        try body(raw(row, column))
    }
}
