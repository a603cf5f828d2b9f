import CPostgreSQL

#if canImport(Glibc)
import Glibc
#endif

/// The parameters of one statement, in binary format, in one byte buffer.
///
/// Types are fixed per statement (its prepared form names them): `text` (25),
/// `bytea` (17), `int8` (20), `bool` (16), and the array forms the bulk inserts use.
/// A nil is SQL NULL of the parameter's type.
struct PGParams {
    private(set) var types: [UInt32] = []
    /// A `text` parameter (or element) holds a NUL byte, which PostgreSQL's `text` cannot
    /// (error 22021): `PGConnection.run` then never sends the statement.
    private(set) var holdsNUL = false
    private var bytes: [UInt8] = []
    /// Offset in `bytes` and length of each parameter; length -1 is NULL.
    private var spans: [(offset: Int, length: Int32)] = []

    init() {}

    init(capacity: Int) {
        types.reserveCapacity(capacity)
        spans.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 24)
    }

    static let textOID: UInt32 = 25
    static let byteaOID: UInt32 = 17
    static let int8OID: UInt32 = 20
    static let boolOID: UInt32 = 16
    static let textArrayOID: UInt32 = 1009
    static let byteaArrayOID: UInt32 = 1001
    static let int8ArrayOID: UInt32 = 1016
    static let boolArrayOID: UInt32 = 1000

    mutating func text(_ value: String?) {
        guard var value else { return null(PGParams.textOID) }
        value.withUTF8 {
            if PGParams.containsNUL($0) { holdsNUL = true }
            append(PGParams.textOID, $0)
        }
    }

    /// A `text` parameter given as its UTF-8 bytes (JSON that `ModelCodec` wrote), without a String.
    mutating func text(bytes value: [UInt8]?) {
        guard let value else { return null(PGParams.textOID) }
        value.withUnsafeBufferPointer {
            if PGParams.containsNUL($0) { holdsNUL = true }
            append(PGParams.textOID, $0)
        }
    }

    static func containsNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0, bytes.count) != nil
    }

    mutating func bytes(_ value: [UInt8]?) {
        guard let value else { return null(PGParams.byteaOID) }
        value.withUnsafeBufferPointer { append(PGParams.byteaOID, $0) }
    }

    mutating func int(_ value: Int64?) {
        guard let value else { return null(PGParams.int8OID) }
        withUnsafeBytes(of: value.bigEndian) { append(PGParams.int8OID, $0.bindMemory(to: UInt8.self)) }
    }

    mutating func bool(_ value: Bool?) {
        guard let value else { return null(PGParams.boolOID) }
        withUnsafeBytes(of: UInt8(value ? 1 : 0)) { append(PGParams.boolOID, $0.bindMemory(to: UInt8.self)) }
    }

    /// A one-dimensional array parameter (`text[]`, `bytea[]`, `int8[]`, `bool[]`) in
    /// PostgreSQL's binary array format, for `INSERT ... SELECT FROM unnest(...)`.
    mutating func array(_ elementOID: UInt32, count: Int, _ write: (inout PGArrayWriter) -> Void) {
        var writer = PGArrayWriter(elementOID: elementOID, count: count)
        write(&writer)
        if writer.holdsNUL { holdsNUL = true }
        precondition(writer.written == count, "array parameter: \(writer.written) elements for \(count)")
        let arrayOID: UInt32
        switch elementOID {
        case PGParams.textOID: arrayOID = PGParams.textArrayOID
        case PGParams.byteaOID: arrayOID = PGParams.byteaArrayOID
        case PGParams.int8OID: arrayOID = PGParams.int8ArrayOID
        default: arrayOID = PGParams.boolArrayOID
        }
        writer.bytes.withUnsafeBufferPointer { append(arrayOID, $0) }
    }

    private mutating func append(_ oid: UInt32, _ value: UnsafeBufferPointer<UInt8>) {
        types.append(oid)
        spans.append((bytes.count, Int32(value.count)))
        bytes.append(contentsOf: value)
    }

    private mutating func null(_ oid: UInt32) {
        types.append(oid)
        spans.append((0, -1))
    }

    var count: Int { types.count }

    /// Calls `body` with libpq's parallel arrays (values, lengths, formats, count).
    func withPointers<R>(
        _ body: (
            UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            var values: [UnsafePointer<CChar>?] = []
            values.reserveCapacity(spans.count)
            var lengths: [Int32] = []
            lengths.reserveCapacity(spans.count)
            for span in spans {
                if span.length < 0 || base == nil {
                    // NULL; a zero-length value needs a non-null pointer anyway.
                    values.append(span.length < 0 ? nil : UnsafePointer<CChar>(bitPattern: 1))
                } else {
                    values.append((base! + span.offset).assumingMemoryBound(to: CChar.self))
                }
                lengths.append(max(span.length, 0))
            }
            let formats = [Int32](repeating: 1, count: spans.count)
            return values.withUnsafeBufferPointer { v in
                lengths.withUnsafeBufferPointer { l in
                    formats.withUnsafeBufferPointer { f in
                        body(v.baseAddress, l.baseAddress, f.baseAddress, Int32(spans.count))
                    }
                }
            }
        }
    }
}

/// Writes the elements of one binary-format array parameter.
struct PGArrayWriter {
    fileprivate var bytes: [UInt8] = []
    fileprivate var written = 0
    fileprivate var holdsNUL = false
    let elementOID: UInt32

    fileprivate init(elementOID: UInt32, count: Int) {
        self.elementOID = elementOID
        // Header: dimensions 1, has-nulls flag (0 is allowed even with NULLs), element
        // type, then the dimension's length and lower bound.
        bytes.reserveCapacity(20 + count * 24)
        put(UInt32(1))
        put(UInt32(0))
        put(elementOID)
        put(UInt32(count))
        put(UInt32(1))
    }

    private mutating func put(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) } }

    private mutating func element(_ value: UnsafeBufferPointer<UInt8>?) {
        written += 1
        guard let value else {
            put(UInt32(bitPattern: -1))
            return
        }
        put(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func text(_ value: String?) {
        guard var value else { return element(nil) }
        value.withUTF8 {
            if PGParams.containsNUL($0) { holdsNUL = true }
            element($0)
        }
    }

    /// A `text` element given as its UTF-8 bytes.
    mutating func text(bytes value: [UInt8]?) {
        if let value, value.withUnsafeBufferPointer(PGParams.containsNUL) { holdsNUL = true }
        bytes(value)
    }

    mutating func bytes(_ value: [UInt8]?) {
        guard let value else { return element(nil) }
        value.withUnsafeBufferPointer { element($0) }
    }

    mutating func int(_ value: Int64?) {
        guard let value else { return element(nil) }
        withUnsafeBytes(of: value.bigEndian) { element($0.bindMemory(to: UInt8.self)) }
    }

    mutating func bool(_ value: Bool?) {
        guard let value else { return element(nil) }
        withUnsafeBytes(of: UInt8(value ? 1 : 0)) { element($0.bindMemory(to: UInt8.self)) }
    }
}
