import Core
import Model

/// The workspace's switches of the in-app escapes (issue 36, decision 0033 §5). Part of
/// every `StoreReader`: a loop's reader answers from the catalog snapshot (`ReaderCache`),
/// so a visit never queries for them.
public protocol InAppEscapeReading: AnyObject {
    /// The settings; `InAppEscapeSettings.initial` (no switches) when never set.
    func inAppEscapeSettings() throws(StoreError) -> InAppEscapeSettings
}

/// Their change, inside a write body: the writer rebuilds the catalog snapshot after the
/// commit (on PostgreSQL the table's trigger tells the other edges).
public protocol InAppEscapeWriting: InAppEscapeReading {
    /// Replaces the settings (`updatedAt` must be set).
    func putInAppEscapeSettings(_ settings: InAppEscapeSettings) throws(StoreError)
}

/// How the switches are stored: their JSON object (`InAppEscapeSwitches.json`).
enum StoredInAppEscapes {
    static func encode(_ switches: InAppEscapeSwitches) -> String { JSONWriter().string(switches.json) }

    static func decode(_ text: String) throws(StoreError) -> InAppEscapeSwitches {
        guard let json = try? JSONParser.parse(Array(text.utf8)), let switches = InAppEscapeSwitches(json: json) else {
            throw ModelCodec.corrupt("switches")
        }
        return switches
    }
}
