import Model

/// The operator console's reads: its sessions, the key-prefix search, a link's newest
/// clicks and opens, the workspace's daily activity.
public protocol ConsoleReading: AnyObject {
    /// Links whose key starts with `keyPrefix` (byte order, case-sensitive, as keys are
    /// matched), on `domain` when given, ordered by key then id, after `after` (the key and
    /// id of the previous page's last link): a range of an index on the key, so that a page
    /// costs its rows whatever the prefix matches and however deep the page.
    func searchLinks(keyPrefix: String, domain: String?, after: (key: String, id: String)?, limit: Int)
        throws(StoreError) -> [Link]
    /// The link's newest clicks, newest first, at most `limit`: through an index on the
    /// clicks' link.
    func recentClicks(link: String, limit: Int) throws(StoreError) -> [Click]
    /// The newest open events that named the link, newest first, at most `limit`.
    func recentOpenEvents(link: String, limit: Int) throws(StoreError) -> [OpenEvent]
    /// Clicks and opens per UTC day of every link, and the `topLinks` links with the most
    /// clicks, over `fromDay...throughDay`. Reads every daily count of the range, one day
    /// per statement (a long count holds no snapshot for long: SQLite's checkpoints go
    /// on): for a background thread, never an event loop.
    func workspaceActivity(fromDay: Int64, throughDay: Int64, topLinks: Int) throws(StoreError) -> WorkspaceActivity
    /// The console session or sign-in link whose token has this SHA-256, expired or not,
    /// when its workspace key exists and is not revoked: a session lasts while its key does.
    func consoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession?
}

/// The console's writes, inside a write body: its sessions and sign-in links.
public protocol ConsoleWriting: ConsoleReading {
    func putConsoleSession(_ session: ConsoleSession) throws(StoreError)
    /// Deletes the session or sign-in link with this token hash; returns it as it was
    /// (whatever its key), nil when there was none. A one-time link is used by deleting it.
    func deleteConsoleSession(tokenHash: [UInt8]) throws(StoreError) -> ConsoleSession?
}
