/// Why an operator's language directory was refused at start-up. Each case names the file (and
/// key), so the message is enough to fix it; no value from the file is ever echoed.
public enum StringCatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The directory does not exist or cannot be listed.
    case unreadableDirectory(String)
    /// A `.json` file cannot be read.
    case unreadableFile(String)
    /// The file name is not `<language-tag>.json` (e.g. `pt-br.json`, `ar.json`).
    case invalidLanguageTag(file: String)
    /// Not a JSON object of strings.
    case invalidJSON(file: String)
    /// A key that is not in `StringKey` (a typo would otherwise go unnoticed).
    case unknownKey(file: String, key: String)
    /// A value that is not a non-empty string of at most 1,000 characters.
    case invalidValue(file: String, key: String)
    /// A `{placeholder}` the English text of that key does not have.
    case unknownPlaceholder(file: String, key: String)
    /// `direction` other than `ltr` or `rtl`.
    case invalidDirection(file: String)

    public var description: String {
        switch self {
        case .unreadableDirectory(let dir): return "languages: cannot read directory \(dir)"
        case .unreadableFile(let file): return "languages: cannot read \(file)"
        case .invalidLanguageTag(let file): return "languages: \(file): name must be <language-tag>.json"
        case .invalidJSON(let file): return "languages: \(file): not a JSON object of strings"
        case .unknownKey(let file, let key): return "languages: \(file): unknown key \(key)"
        case .invalidValue(let file, let key): return "languages: \(file): \(key) must be a non-empty string"
        case .unknownPlaceholder(let file, let key): return "languages: \(file): \(key) uses an unknown placeholder"
        case .invalidDirection(let file): return "languages: \(file): direction must be ltr or rtl"
        }
    }
}
