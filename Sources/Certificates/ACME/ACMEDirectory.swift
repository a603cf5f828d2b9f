import Core

/// The CA's directory (RFC 8555, section 7.1.1): where each resource lives. `renewalInfo`
/// is there when the CA offers ACME Renewal Information (RFC 9773).
public struct ACMEDirectory: Sendable, Equatable {
    public var newNonce: String
    public var newAccount: String
    public var newOrder: String
    public var renewalInfo: String?
    public var termsOfService: String?
    public var externalAccountRequired: Bool

    public init?(json: JSONValue) {
        guard let nonce = json["newNonce"]?.stringValue, let account = json["newAccount"]?.stringValue,
            let order = json["newOrder"]?.stringValue
        else { return nil }
        newNonce = nonce
        newAccount = account
        newOrder = order
        renewalInfo = json["renewalInfo"]?.stringValue
        termsOfService = json["meta"]?["termsOfService"]?.stringValue
        externalAccountRequired = json["meta"]?["externalAccountRequired"]?.boolValue ?? false
    }
}
