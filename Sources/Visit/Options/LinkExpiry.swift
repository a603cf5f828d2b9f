import Model

/// When a link answers as expired (decision 0032): from `expiresAt` on, to the millisecond.
public enum LinkExpiry {
    /// A visit at `expiresAt - 1` is served; one at `expiresAt` is expired.
    public static func isExpired(_ options: LinkOptions, now: Int64) -> Bool {
        guard let expiresAt = options.expiresAt else { return false }
        return now >= expiresAt
    }
}
