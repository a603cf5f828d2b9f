import Store

/// The `Authorization: Bearer biqli_mobile_pk_...` check.
///
/// The key is looked up by its SHA-256 (over the whole key text, prefix
/// included) before the body is read, so at this point we only learn which app
/// the key belongs to; that the body's `appId` is that app is checked after
/// validation (`resource_not_found` otherwise).
enum MobileKey {
    static let prefix = "biqli_mobile_pk_"
    static let secretLength = 64

    /// True for `biqli_mobile_pk_` + 64 characters of `[A-Za-z0-9_-]`.
    static func isWellFormed(_ key: String) -> Bool {
        let u = key.utf8
        guard u.count == prefix.utf8.count + secretLength, key.hasPrefix(prefix) else { return false }
        return u.dropFirst(prefix.utf8.count).allSatisfy(SafeText.isBase64URLByte)
    }

    /// The bearer token of an `Authorization` header (scheme case-insensitive).
    static func bearer(_ lookup: HeaderLookup) -> String? {
        guard let value = lookup.value else { return nil }
        let u = value.utf8
        guard u.count > 7 else { return nil }
        for (c, expected) in zip(u.prefix(7), "bearer ".utf8) where c | 0x20 != expected {
            return nil
        }
        let token = value.dropFirst(7).trimmingOptionalWhitespace()
        return token.isEmpty ? nil : token
    }

    static func hash(_ key: String) -> [UInt8] { Digest.sha256(key) }

    /// The usable key record for the request's `Authorization`, or `invalid_mobile_key`.
    /// `keysVersion` is the store's `publishableKeysVersion`, read before the lookup.
    static func authenticate(
        _ authorization: HeaderLookup, loop: Int, now: Int64, keysVersion: UInt64, reader: any StoreReader,
        cache: KeyCache
    ) throws(ResolverError) -> PublishableKeyRecord {
        guard let key = bearer(authorization), isWellFormed(key) else { throw .invalidMobileKey }
        let record: PublishableKeyRecord?
        do {
            record = try cache.record(key: key, loop: loop, now: now, version: keysVersion) {
                () throws(StoreError) in
                try reader.publishableKey(hash: hash(key))
            }
        } catch {
            throw .internalServerError
        }
        guard let record, record.isUsable(at: now) else { throw .invalidMobileKey }
        return record
    }
}
