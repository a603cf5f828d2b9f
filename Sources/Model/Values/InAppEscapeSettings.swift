/// The workspace's switches of the escapes from in-app browsers (issue 36, decision 0033
/// §5): what `/api/v1/in-app-escapes` reads and writes, and what the visits of links
/// without their own switches follow. The edge reads them from its catalog snapshot,
/// never per visit from the database.
public struct InAppEscapeSettings: Sendable, Equatable {
    /// Empty (never set, or cleared): every escape everywhere.
    public var switches: InAppEscapeSwitches
    /// Unix milliseconds of the last change; nil when never set.
    public var updatedAt: Int64?

    public init(switches: InAppEscapeSwitches = InAppEscapeSwitches(), updatedAt: Int64? = nil) {
        self.switches = switches
        self.updatedAt = updatedAt
    }

    public static let initial = InAppEscapeSettings()
}
