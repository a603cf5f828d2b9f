/// The console's numbers, every one with its default (`Console.init`).
public struct ConsoleConfiguration: Sendable {
    /// How long a session lasts after sign-in (the cookie's `Max-Age` too): 12 hours.
    public var sessionLifetimeSeconds: Int64 = 12 * 3_600
    /// How long a one-time sign-in link can be used: 10 minutes.
    public var signInLinkLifetimeSeconds: Int64 = 600
    /// Wrong keys (and unusable sign-in links) one address may try at once: 5 ...
    public var signInBurst = 5
    /// ... then one every this many seconds: 60.
    public var signInIntervalSeconds: Int64 = 60
    /// The overview's counts are recounted, in the background, when a page asks for them
    /// and they are older than this: 5 minutes.
    public var overviewRefreshSeconds: Int64 = 300
    /// Days on the overview (today included).
    public var overviewDays = 30
    /// Links in the overview's top list.
    public var topLinks = 10
    /// Links per page of the list.
    public var pageSize = 50
    /// Rows of a link's recent clicks and of its recent open events.
    public var recentRows = 20

    public init() {}
}
