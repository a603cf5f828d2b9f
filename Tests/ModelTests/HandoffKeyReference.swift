import Core

@testable import Model

extension HandoffKey {
    /// The storage key of `token` written the plain way, as `HandoffKey` describes it
    /// (decode the body, its first `timeBytes`, then SHA-256 of the token text), or nil
    /// when it does not decode to 32 bytes: the reference `HandoffToken.hash` is held to.
    static func storageKey(token: String) -> [UInt8]? {
        let prefix = "bqmh_"
        guard token.hasPrefix(prefix), let body = Base64URL.decode(String(token.dropFirst(prefix.count))),
            body.count == tokenBytes
        else { return nil }
        return Array(body[0..<timeBytes]) + SHA256.hash(Array(token.utf8))
    }
}
