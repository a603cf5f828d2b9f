import Core
import Model
import Store

/// The `Authorization: Bearer biqli_mobile_pk_...` check.
///
/// The key is looked up by its SHA-256 (over the whole key text, prefix
/// included) before the body is read, so at this point we only learn which app
/// the key belongs to; that the body's `appId` is that app is checked after
/// validation (`resource_not_found` otherwise).
enum MobileKey {
    static let prefix: StaticString = "biqli_mobile_pk_"
    static let secretLength = 64
    static let length = prefix.utf8CodeUnitCount + secretLength

    /// True for `biqli_mobile_pk_` + 64 characters of `[A-Za-z0-9_-]`.
    static func isWellFormed(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { isWellFormed($0) }
    }

    static func isWellFormed(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard u.count == length else { return false }
        guard SafeText.hasPrefix(u, prefix) else { return false }
        for c in u[prefix.utf8CodeUnitCount...] where !SafeText.isBase64URLByteByMask(c) { return false }
        return true
    }

    /// Where the bearer token lies in an `Authorization` value (scheme
    /// case-insensitive, optional whitespace around the token), or nil when the
    /// value is not `Bearer` and a non-empty token.
    static func bearerRange(_ u: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard u.count > 7 else { return nil }
        guard SafeText.hasPrefix(u, "bearer ", ignoringCase: true) else { return nil }
        func isOWS(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        var start = 7
        var end = u.count
        while start < end, isOWS(u[start]) { start += 1 }
        while end > start, isOWS(u[end - 1]) { end -= 1 }
        return start < end ? start..<end : nil
    }

    /// The usable key record for the request's `Authorization`, or `invalid_mobile_key`.
    /// `keysVersion` is the store's `publishableKeysVersion`, read before the lookup.
    ///
    /// Checked on the header value's own bytes, and cached under the whole value:
    /// no string is made for the key, and only a cache miss hashes it.
    static func authenticate(
        _ authorization: HeaderLookup, loop: Int, now: Int64, keysVersion: UInt64, reader: any KeyReading,
        cache: KeyCache
    ) throws(ResolverError) -> PublishableKeyRecord {
        guard let value = authorization.value else { throw .invalidMobileKey }
        var text = value  // `withUTF8` wants a variable; a native string lends its bytes as they are
        let keyRange = text.withUTF8 { u -> Range<Int>? in
            guard let r = bearerRange(u), isWellFormed(UnsafeBufferPointer(rebasing: u[r])) else { return nil }
            return r
        }
        guard let keyRange else { throw .invalidMobileKey }
        let record: PublishableKeyRecord?
        do {
            record = try cache.record(key: value, loop: loop, now: now, version: keysVersion) {
                () throws(StoreError) in
                let keyHash = text.withUTF8 { u in
                    SHA256.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: u[keyRange])))
                }
                return try reader.publishableKey(hash: keyHash)
            }
        } catch {
            throw ResolverError.failure(of: error)
        }
        guard let record, record.isUsable(at: now) else { throw .invalidMobileKey }
        return record
    }
}
