/// Rows of one table read from SQLite and not yet sent, held column by column: each
/// column becomes one binary array parameter of the table's `INSERT ... SELECT FROM
/// unnest(...)` (`CopyTable.insertSQL`).
struct CopyBatch {
    enum Value {
        case null
        case text(String)
        case int(Int64)
        case flag(Bool)
        case bytes([UInt8])
    }

    let table: CopyTable
    private(set) var columns: [[Value]]
    private(set) var count = 0

    init(table: CopyTable, capacity: Int) {
        self.table = table
        columns = table.columns.map { _ in
            var column: [Value] = []
            column.reserveCapacity(capacity)
            return column
        }
    }

    /// Appends the statement's current row (its columns in the table's order).
    mutating func append(_ s: SQLiteStatement) {
        for (i, column) in table.columns.enumerated() {
            let c = Int32(i)
            let value: Value
            if s.isNull(c) {
                value = .null
            } else {
                switch column.kind {
                case .text: value = .text(s.text(c))
                case .int: value = .int(s.int64(c))
                case .flag: value = .flag(s.int64(c) != 0)
                case .bytes: value = .bytes(s.blob(c))
                }
            }
            columns[i].append(value)
        }
        count += 1
    }

    mutating func removeAll() {
        for i in columns.indices { columns[i].removeAll(keepingCapacity: true) }
        count = 0
    }

    /// The column named `name` (for rows derived from this batch's).
    func column(_ name: String) -> [Value] {
        guard let i = table.columns.firstIndex(where: { $0.name == name }) else {
            preconditionFailure("no column \(name) in \(table.name)")
        }
        return columns[i]
    }

    /// One array parameter per column, in the table's order.
    var params: PGParams {
        var p = PGParams(capacity: columns.count)
        for (i, column) in table.columns.enumerated() {
            let values = columns[i]
            p.array(column.kind.elementOID, count: values.count) { w in
                for v in values {
                    switch v {
                    case .null:
                        // Any element writer writes a NULL element the same way.
                        w.bytes(nil)
                    case .text(let t): w.text(t)
                    case .int(let n): w.int(n)
                    case .flag(let b): w.bool(b)
                    case .bytes(let b): w.bytes(b)
                    }
                }
            }
        }
        return p
    }
}
