/// Why an app or a domain attachment cannot be saved.
///
/// Every case maps to the management API's `validation_error` with a per-field
/// detail (`field` -> `message`), so the API can answer
/// `{"error":{"code":"validation_error","details":{"ios.teamId":"must match ^[A-Z0-9]{10}$"}}}`.
/// Field names are the JSON paths of the management API (`ios.teamId`,
/// `android.sha256CertFingerprints[1]`). Messages hold configuration values only,
/// never secrets.
public enum AssociationValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `field` breaks `rule` (the rule is written so that "<field> <rule>" reads as a sentence).
    case field(String, String)
    /// Two apps attached to `domain` claim the same identity (`TEAMID.bundle` or an Android package).
    /// `field` is the field of the app being saved that collides.
    case duplicateAppID(field: String, appID: String, domain: String, otherAppId: String)
    /// The document `kind` of `domain` would exceed `limit` bytes with the prospective apps.
    case documentTooLarge(domain: String, kind: AssociationDocumentKind, bytes: Int, limit: Int)
    /// The AASA of `domain`, which lists several iOS apps and therefore each app's link
    /// keys one by one, would exceed `limit` bytes after the save. `field` is the field of
    /// the request that adds to it (`domains` for an app, `domain` for a link).
    case tooManyLinkKeys(field: String, domain: String, bytes: Int, limit: Int)

    /// The wire code of the management API's error envelope.
    public var code: String { "validation_error" }

    /// The JSON path the error is about.
    public var field: String {
        switch self {
        case .field(let f, _): return f
        case .duplicateAppID(let f, _, _, _): return f
        case .documentTooLarge: return "domains"
        case .tooManyLinkKeys(let f, _, _, _): return f
        }
    }

    /// The rule that was broken, for `details[field]`.
    public var message: String {
        switch self {
        case .field(_, let rule): return rule
        case .duplicateAppID(_, let appID, let domain, let other):
            return "\(appID) is already attached to \(domain) by app \(other); an app ID may appear once per domain"
        case .documentTooLarge(let domain, let kind, let bytes, let limit):
            return
                "\(kind.path) of \(domain) would be \(bytes) bytes, over the \(limit)-byte limit; attach fewer apps to this domain"
        case .tooManyLinkKeys(_, let domain, let bytes, let limit):
            return
                "\(AssociationDocumentKind.appleAppSiteAssociation.path) of \(domain) would be \(bytes) bytes, over the \(limit)-byte limit: several iOS apps share \(domain), so each app's entry lists its links' keys one by one; use one domain per app (its AASA then claims every link with one pattern)"
        }
    }

    public var description: String { "\(field): \(message)" }
}
