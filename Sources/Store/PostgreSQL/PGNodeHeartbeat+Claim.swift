import Model

/// The claim of a node's name and the name's lock (see `PGNodeHeartbeat`).
extension PGNodeHeartbeat {
    struct Claim {
        var startedAt: Int64
        var holdsName: Bool
    }

    /// A connection whose statements give up after 5 s (a heartbeat must not hang).
    static func connect(_ settings: PGConnectionSettings) throws(StoreError) -> PGConnection {
        let db = try PGConnection.connect(settings)
        try db.execute("SET statement_timeout = 5000")
        return db
    }

    /// Takes the name's session lock if free; true when this connection holds it.
    static func lockName(on db: PGConnection, _ name: String) throws(StoreError) -> Bool {
        var p = PGParams()
        p.int(nameLockClass)
        p.int(Int64(nameHash(name)))
        return try db.run(
            "node_name_lock", "SELECT pg_try_advisory_lock(CAST($1 AS integer), CAST($2 AS integer))", p
        ).bool(0, 0)
    }

    /// FNV-1a of the name's UTF-8, as the lock's signed 32-bit key: the same in every binary.
    static func nameHash(_ name: String) -> Int32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return Int32(bitPattern: hash)
    }

    /// In one transaction under the claim lock: the name's session lock, the row's last
    /// heartbeat, and the row written anew (this process's start) unless refused.
    static func claim(on db: PGConnection, identity: Identity, listening: String) throws(ClaimError) -> Claim {
        enum Outcome {
            case claimed(Claim)
            case taken(Int64, String)
        }
        let outcome: Outcome
        do throws(StoreError) {
            try db.execute("BEGIN")
            do throws(StoreError) {
                var lock = PGParams()
                lock.int(claimLockKey)
                try db.run("node_claim_lock", "SELECT pg_advisory_xact_lock($1)", lock)
                let held = try lockName(on: db, identity.name)
                var find = PGParams()
                find.text(identity.name)
                let row = try db.run(
                    "node_find",
                    "SELECT \(nowSQL), n.heartbeat_at, n.listening FROM (SELECT 1) AS one "
                        + "LEFT JOIN nodes n ON n.name = $1", find)
                let now = row.int(0, 0)
                if !held, let last = row.optionalInt(0, 1), now - last <= liveWithinMilliseconds {
                    try db.execute("ROLLBACK")
                    outcome = .taken(now - last, row.optionalText(0, 2) ?? "")
                } else {
                    var p = PGParams()
                    p.text(identity.name)
                    p.text(identity.version)
                    p.int(Int64(identity.schemaVersion))
                    p.text(listening)
                    let started = try db.run(
                        "node_claim",
                        """
                        WITH t AS (SELECT \(nowSQL) AS ms)
                        INSERT INTO nodes (name, version, schema_version, started_at, heartbeat_at, listening)
                        SELECT $1, $2, $3, t.ms, t.ms, $4 FROM t
                        ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version,
                            schema_version = EXCLUDED.schema_version, started_at = EXCLUDED.started_at,
                            heartbeat_at = EXCLUDED.heartbeat_at, listening = EXCLUDED.listening
                        RETURNING started_at
                        """, p
                    ).int(0, 0)
                    try db.execute("COMMIT")
                    outcome = .claimed(Claim(startedAt: started, holdsName: held))
                }
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        } catch {
            throw .store(error)
        }
        switch outcome {
        case .claimed(let claim): return claim
        case .taken(let ago, let listening):
            throw .nameTaken(name: identity.name, millisecondsAgo: ago, listening: listening)
        }
    }
}
