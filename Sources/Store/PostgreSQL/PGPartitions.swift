import Model

/// The daily partitions of `clicks` and `open_events` (range partitions on `at`,
/// epoch milliseconds, named `<table>_p<days since the epoch>`).
///
/// Partitions are made ahead of time (`ensure`: at start-up and on every retention
/// pass), under a transaction advisory lock so that several edges do not race to
/// create the same one; there is no default partition, so a row dated outside every
/// partition fails its write instead of landing where retention cannot drop it.
/// Retention detaches and drops whole days.
enum PGPartitions {
    static let tables = ["clicks", "open_events"]
    static let dayMilliseconds: Int64 = 86_400_000
    /// Days made ahead of today (and kept behind it): writes never meet a missing day.
    static let daysAhead: Int64 = 14
    static let lockKey: Int64 = 0x6269_716C_6901

    static func day(of milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / dayMilliseconds : (milliseconds - dayMilliseconds + 1) / dayMilliseconds
    }

    static func name(_ table: String, day: Int64) -> String { "\(table)_p\(day)" }

    /// Makes the partitions of every day from `from` through `through` (epoch ms) that do
    /// not exist yet, in a transaction of its own.
    static func ensure(on connection: PGConnection, from: Int64, through: Int64) throws(StoreError) {
        let missing = try self.missing(on: connection, from: from, through: through)
        guard !missing.isEmpty else { return }
        try connection.execute("BEGIN")
        do throws(StoreError) {
            try make(missing, on: connection)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The same inside the caller's open transaction (`migrate-store`: the partitions
    /// commit with the copy or not at all).
    static func ensureInTransaction(on connection: PGConnection, from: Int64, through: Int64) throws(StoreError) {
        let missing = try self.missing(on: connection, from: from, through: through)
        if !missing.isEmpty { try make(missing, on: connection) }
    }

    private static func missing(on connection: PGConnection, from: Int64, through: Int64) throws(StoreError)
        -> [(String, Int64)]
    {
        let existing = try days(on: connection)
        var missing: [(String, Int64)] = []
        for table in tables {
            for d in day(of: from)...day(of: through) where !(existing[table]?.contains(d) ?? false) {
                missing.append((table, d))
            }
        }
        return missing
    }

    /// Under the partitions' transaction lock, so that several edges do not race.
    private static func make(_ missing: [(String, Int64)], on connection: PGConnection) throws(StoreError) {
        var lock = PGParams()
        lock.int(lockKey)
        try connection.run("partitions_lock", "SELECT pg_advisory_xact_lock($1)", lock)
        for (table, d) in missing {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS \(name(table, day: d)) PARTITION OF \(table) "
                    + "FOR VALUES FROM (\(d * dayMilliseconds)) TO (\((d + 1) * dayMilliseconds))")
        }
    }

    /// The days that have a partition, per table.
    static func days(on connection: PGConnection) throws(StoreError) -> [String: Set<Int64>] {
        let rows = try connection.run(
            "partitions_list",
            """
            SELECT parent.relname, child.relname FROM pg_inherits
            JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
            JOIN pg_class child ON child.oid = pg_inherits.inhrelid
            WHERE parent.relname = ANY('{clicks,open_events}')
            """)
        var out: [String: Set<Int64>] = [:]
        for r in 0..<rows.rowCount {
            let table = rows.text(r, 0)
            let child = rows.text(r, 1)
            let prefix = table + "_p"
            guard child.hasPrefix(prefix), let d = Int64(child.dropFirst(prefix.count)) else { continue }
            out[table, default: []].insert(d)
        }
        return out
    }

    /// Drops the partitions whose whole day is before `olderThan`; returns how many went.
    static func dropBefore(_ olderThan: Int64, on connection: PGConnection) throws(StoreError) -> Int {
        let cutoff = day(of: olderThan)
        var dropped = 0
        for (table, days) in try days(on: connection) {
            for d in days.sorted() where d < cutoff {
                // A day partition holds [d, d+1): it is whole before the cutoff day only.
                try connection.execute("DROP TABLE IF EXISTS \(name(table, day: d))")
                dropped += 1
            }
        }
        return dropped
    }
}
