/// A workspace publishable browser key (`biqli_pk_...`), stored hashed. It grants one
/// thing: `POST /api/v1/track/click` from an origin the workspace allows (client-side
/// click tracking, decision 0027). It is public by design (it sits in the customer's
/// pages), so it is no secret; revoking it stops the calls at once.
public struct BrowserKeyRecord: Sendable, Equatable {
    /// `bk_` + ULID: what `keys list` shows and `keys revoke` takes.
    public var id: String
    public var name: String
    public var keyHash: [UInt8]
    /// Last four characters, to tell keys apart in listings.
    public var hint: String
    public var createdAt: Int64
    public var revokedAt: Int64?

    public init(
        id: String, name: String, keyHash: [UInt8], hint: String, createdAt: Int64, revokedAt: Int64? = nil
    ) {
        self.id = id
        self.name = name
        self.keyHash = keyHash
        self.hint = hint
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// The prefix of the ids of browser keys (secret keys' are `sk_`).
    public static let idPrefix = "bk_"
}

/// The workspace's settings of client-side click tracking (decision 0027): whether
/// `POST /api/v1/track/click` answers at all, and the hostnames of the pages allowed to
/// call it (the `Origin` of the browser's request). Off and empty until set.
public struct ClientClickSettings: Sendable, Equatable {
    public var enabled: Bool
    /// Exact hostnames and `*.` wildcards (`AllowedHostnames`), in the order given.
    public var hostnames: [String]
    /// When they were last changed (milliseconds); nil when never set.
    public var updatedAt: Int64?

    public init(enabled: Bool = false, hostnames: [String] = [], updatedAt: Int64? = nil) {
        self.enabled = enabled
        self.hostnames = hostnames
        self.updatedAt = updatedAt
    }

    /// Never set: off, no hostnames.
    public static let initial = ClientClickSettings()
}
