import HTTPMessages

/// Who sent a request to the console, as the edge established it.
public struct ConsoleClient: Sendable {
    /// The client's address (through trusted proxies): what sign-in attempts are counted by.
    public var address: String
    /// True when the request came over HTTPS, directly or as a trusted proxy says
    /// (`X-Forwarded-Proto: https`): the cookies are then `Secure`.
    public var secure: Bool
    /// The event loop serving the request (its store reader, where answers resume).
    public var loop: Int

    public init(address: String, secure: Bool, loop: Int) {
        self.address = address
        self.secure = secure
        self.loop = loop
    }
}

/// The console's answer to a request: now, or later through `respond` (after a write, or
/// work on the console's background thread), exactly once, from any thread.
public enum ConsoleAnswer: Sendable {
    case response(HTTPResponse)
    case deferred(@Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
}
