import Model

extension PGStore {
    /// The secret named `name` every node of the fleet shares: read, or made with `make`
    /// by the first node that asks (under a lock, so that two nodes starting together
    /// agree on one value). On its own connection, at start-up.
    public func sharedSecret(named name: String, make: () -> [UInt8]) throws(StoreError) -> [UInt8] {
        let db = try PGConnection.connect(settings)
        try db.execute("BEGIN")
        do throws(StoreError) {
            var lock = PGParams()
            lock.int(StoreLock.fleetSecrets.rawValue)
            try db.run("secret_lock", "SELECT pg_advisory_xact_lock($1)", lock)
            var p = PGParams()
            p.text(name)
            let found = try db.run("secret_get", "SELECT value FROM fleet_secrets WHERE name = $1", p)
            let value: [UInt8]
            if found.rowCount == 1 {
                value = found.bytes(0, 0)
            } else {
                value = make()
                var insert = PGParams()
                insert.text(name)
                insert.bytes(value)
                insert.int(options.clock())
                try db.run(
                    "secret_put", "INSERT INTO fleet_secrets (name, value, created_at) VALUES ($1, $2, $3)", insert)
            }
            try db.execute("COMMIT")
            return value
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
