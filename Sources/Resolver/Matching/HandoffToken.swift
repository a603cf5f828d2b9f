/// The opaque handoff token: `bqmh_` + 43 base64url characters (32 random
/// bytes), exactly 48 characters. Only its SHA-256 is ever stored or looked up.
enum HandoffToken {
    static let prefix = "bqmh_"
    static let length = 48

    static func isWellFormed(_ token: String) -> Bool {
        let u = token.utf8
        guard u.count == length, token.hasPrefix(prefix) else { return false }
        return u.dropFirst(prefix.utf8.count).allSatisfy(SafeText.isBase64URLByte)
    }

    static func hash(_ token: String) -> [UInt8] { Digest.sha256(token) }
}
