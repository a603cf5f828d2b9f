import Core
import Model
import Store

/// Workspace secret keys (`biqli_sk_...`), which authenticate the workspace API: the
/// operations behind `biqli-edge keys`. A key exists in clear only in what `create`
/// returns; the store keeps its SHA-256 and last four characters.
public enum WorkspaceKeys {
    /// Longest name, in characters.
    static let maxNameLength = 64

    /// Why `name` cannot name a key (a rule to print after `--name`), nil when it can.
    public static func nameProblem(_ name: String) -> String? { TextRule.check(name, maxLength: maxNameLength) }

    /// Stores a new key named `name` (checked with `nameProblem` first) and returns it,
    /// the only time it is seen. `scopes` nil: every power; else exactly those (not empty).
    public static func create(name: String, scopes: [KeyScope]? = nil, store: any Store, now: Int64)
        throws(StoreError) -> String
    {
        let key = KeyMaterial.newSecretKey()
        let record = SecretKeyRecord(
            id: "sk_" + ULID.make(), name: name, keyHash: KeyMaterial.hash(key), hint: KeyMaterial.hint(key),
            createdAt: now, scopes: scopes.map { $0.isEmpty ? KeyScope.allCases : $0.sorted() })
        try store.writeAndWait { tx in try tx.putSecretKey(record) }
        return key
    }

    public enum Revocation: Sendable, Equatable {
        case revoked
        case alreadyRevoked
        case notFound
    }

    /// Revokes the key with this id: requests with it get 401 from the next one on.
    /// Revoking a revoked key changes nothing.
    public static func revoke(id: String, store: any Store, now: Int64) throws(StoreError) -> Revocation {
        try store.writeAndWait { tx -> Revocation in
            guard var record = try tx.secretKeys().first(where: { $0.id == id }) else { return .notFound }
            if record.revokedAt != nil { return .alreadyRevoked }
            record.revokedAt = now
            try tx.putSecretKey(record)
            return .revoked
        }
    }
}
