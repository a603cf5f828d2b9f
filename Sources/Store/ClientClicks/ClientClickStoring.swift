import Model

/// The reads of client-side click tracking (issue 25 item 3, decision 0027): workspace
/// browser keys and the workspace's settings. Part of every `StoreReader`:
/// `POST /api/v1/track/click` reads both on the event loop for every call (a primary-key
/// or unique-index look-up each).
public protocol ClientClickReading: AnyObject {
    /// The browser key whose whole text has this SHA-256, revoked or not.
    func browserKey(hash: [UInt8]) throws(StoreError) -> BrowserKeyRecord?
    /// Every browser key, by creation time then id.
    func browserKeys() throws(StoreError) -> [BrowserKeyRecord]
    /// The settings; `ClientClickSettings.initial` (off, no hostnames) when never set.
    func clientClickSettings() throws(StoreError) -> ClientClickSettings
}

/// The writes of client-side click tracking, inside a write body.
public protocol ClientClickWriting: ClientClickReading {
    /// Inserts the key or replaces the one with its id (revocation sets `revokedAt`).
    func putBrowserKey(_ key: BrowserKeyRecord) throws(StoreError)
    /// Replaces the settings (`updatedAt` must be set).
    func putClientClickSettings(_ settings: ClientClickSettings) throws(StoreError)
}

/// How the settings' hostnames are stored: one text, names separated by one space (no
/// allowed name holds a space).
enum StoredHostnames {
    static func encode(_ names: [String]) -> String { names.joined(separator: " ") }
    static func decode(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
}
