import Core
import Model
import Store

/// Workspace publishable browser keys (`biqli_pk_...`): what a customer's page sends to
/// `POST /api/v1/track/click` (client-side click tracking, decision 0027), and nothing
/// else: every other route refuses them (401 `invalid_token`), and track/click refuses
/// every other key. The operations behind `biqli-edge keys create --browser` and
/// `/api/v1/browser-keys`. Public by design, but still stored as their SHA-256 and shown
/// once, like every key of the edge: a listing never reveals one.
public enum BrowserKeys {
    /// `biqli_pk_` + 43 base64url characters.
    public static func isWellFormed(_ key: String) -> Bool {
        KeyMaterial.isWellFormed(key, prefix: KeyMaterial.browserPrefix, count: 43)
    }

    /// Stores a new browser key named `name` (checked with `WorkspaceKeys.nameProblem`)
    /// and returns its record and the key, the only time the key is seen.
    public static func create(name: String, in tx: any ClientClickWriting, now: Int64) throws(StoreError) -> (
        BrowserKeyRecord, String
    ) {
        let key = KeyMaterial.newBrowserKey()
        let record = BrowserKeyRecord(
            id: BrowserKeyRecord.idPrefix + ULID.make(), name: name, keyHash: KeyMaterial.hash(key),
            hint: KeyMaterial.hint(key), createdAt: now)
        try tx.putBrowserKey(record)
        return (record, key)
    }

    /// `create` in its own transaction (the CLI).
    public static func create(name: String, store: any Store, now: Int64) throws(StoreError) -> String {
        try store.writeAndWait { tx in try create(name: name, in: tx, now: now).1 }
    }

    /// Revokes browser key `id`: calls with it are refused from the next one on.
    public static func revoke(id: String, in tx: any ClientClickWriting, now: Int64) throws(StoreError)
        -> (WorkspaceKeys.Revocation, BrowserKeyRecord?)
    {
        guard var record = try tx.browserKeys().first(where: { $0.id == id }) else { return (.notFound, nil) }
        if record.revokedAt != nil { return (.alreadyRevoked, record) }
        record.revokedAt = now
        try tx.putBrowserKey(record)
        return (.revoked, record)
    }

    /// `revoke` in its own transaction (the CLI).
    public static func revoke(id: String, store: any Store, now: Int64) throws(StoreError)
        -> WorkspaceKeys.Revocation
    {
        try store.writeAndWait { tx in try revoke(id: id, in: tx, now: now).0 }
    }

    /// The usable key behind a bearer token, nil for anything else (malformed, unknown,
    /// revoked, or another kind of key).
    static func authenticate(_ token: String?, reader: any ClientClickReading) throws(StoreError) -> BrowserKeyRecord? {
        guard let token, isWellFormed(token), let record = try reader.browserKey(hash: KeyMaterial.hash(token)),
            record.revokedAt == nil
        else { return nil }
        return record
    }
}
