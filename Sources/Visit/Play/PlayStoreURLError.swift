/// Why an operator-configured Play URL (`android.playStoreUrl`) cannot be saved.
/// Every case is the management API's `validation_error` on `android.playStoreUrl`.
public enum PlayStoreURLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `https://play.google.com/store/apps/details[?query][#fragment]`.
    case notPlayStoreURL
    /// A character a URL cannot carry raw (space, quote, `<`, `>`, control, non-ASCII...).
    case invalidCharacters
    /// The URL's `id` names another package: the Play referrer would reach that app, not this one.
    case packageMismatch(found: String)
    /// The `referrer` value is not percent-encoded UTF-8 text (broken `%` escape or bytes).
    case referrerNotDecodable
    /// The operator's referrer leaves too little room for `&biqli_token=<48 chars>` under
    /// the 200-byte bound of the decoded referrer.
    case referrerTooLong(bytes: Int, limit: Int)

    public var code: String { "validation_error" }
    public var field: String { "android.playStoreUrl" }

    public var message: String {
        switch self {
        case .notPlayStoreURL:
            return "must start with https://play.google.com/store/apps/details"
        case .invalidCharacters:
            return "must be a URL of visible ASCII characters (percent-encode anything else)"
        case .packageMismatch(let found):
            return "names the package \(found), which is not android.packageName"
        case .referrerNotDecodable:
            return "has a referrer that is not percent-encoded UTF-8 text"
        case .referrerTooLong(let bytes, let limit):
            return "has a decoded referrer of \(bytes) bytes; at most \(limit) bytes leave room for the handoff token"
        }
    }

    public var description: String { field + " " + message }
}
