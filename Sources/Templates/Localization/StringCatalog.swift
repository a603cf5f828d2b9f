import Core
import Foundation

/// All page languages: the built-in tables plus the operator's, immutable once built.
///
/// The operator adds or overrides languages with a directory of JSON files, one per language,
/// named `<tag>.json` (`it.json`, `pt-br.json`, `en.json` to reword English), each an object whose
/// keys are `StringKey` raw values (see that type for the list) and whose values are plain text:
///
///     {"deepview.continue": "Continua", "deepview.explain": "Continua copia un link che {app} ..."}
///
/// A file for a built-in language replaces only the keys it lists; a new language starts from
/// English, so a partial table still renders whole pages. A new language whose primary subtag is
/// written right to left (`ar`, `he`, `fa`, `ur`, ...) defaults to `"direction": "rtl"`.
public struct StringCatalog: Sendable {
    /// Complete tables by lower-case tag.
    let tables: [String: [StringKey: String]]

    /// English, Spanish, French, German, Portuguese and Japanese.
    public static let builtIn = StringCatalog(tables: BuiltInStrings.all)

    /// The tags pages can be rendered in.
    public let languages: Set<String>

    init(tables: [String: [StringKey: String]]) {
        self.tables = tables
        self.languages = Set(tables.keys)
    }

    /// The best language for an `Accept-Language` header (English when nothing fits).
    public func negotiate(acceptLanguage: String?) -> String {
        LanguageNegotiation.negotiate(acceptLanguage, available: languages, fallback: "en")
    }

    /// The table for `tag` (English for an unknown tag).
    func strings(for tag: String) -> LocalizedStrings {
        if let table = tables[tag] { return LocalizedStrings(language: tag, table: table) }
        return LocalizedStrings(language: "en", table: tables["en"] ?? BuiltInStrings.english)
    }

    /// The strings for the best language of `acceptLanguage`.
    func strings(acceptLanguage: String?) -> LocalizedStrings {
        strings(for: negotiate(acceptLanguage: acceptLanguage))
    }

    // MARK: - Operator tables

    /// `base` plus every `<tag>.json` in `directory` (other files are ignored). Called once by the
    /// edge at start-up; any problem refuses the whole directory with a precise error.
    public static func loading(directory: String, over base: StringCatalog = .builtIn) throws(StringCatalogError)
        -> StringCatalog
    {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadableDirectory(directory)
        }
        var tables = base.tables
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(name) }
            let tag = String(name.dropLast(".json".count)).lowercased()
            let start = tables[tag] ?? defaults(forNewLanguage: tag, english: tables["en"] ?? BuiltInStrings.english)
            tables[tag] = try overlay(Array(data), on: start, tag: tag, file: name)
        }
        return StringCatalog(tables: tables)
    }

    /// `start` with the entries of the JSON object `bytes` applied, after checking them.
    static func overlay(_ bytes: [UInt8], on start: [StringKey: String], tag: String, file: String)
        throws(StringCatalogError) -> [StringKey: String]
    {
        guard LanguageNegotiation.isRange(tag), tag != "*" else { throw .invalidLanguageTag(file: file) }
        let options = JSONParser.Options(maxDepth: 2, maxBytes: 256 * 1024, rejectDuplicateKeys: true)
        guard let json = try? JSONParser.parse(bytes, options: options), let object = json.objectValue else {
            throw .invalidJSON(file: file)
        }
        var table = start
        for (name, value) in object {
            guard let key = StringKey(rawValue: name) else { throw .unknownKey(file: file, key: name) }
            guard let text = value.stringValue, !text.isEmpty, text.count <= 1000 else {
                throw .invalidValue(file: file, key: name)
            }
            if key == .direction && text != "ltr" && text != "rtl" { throw .invalidDirection(file: file) }
            let allowed = placeholders(in: BuiltInStrings.english[key] ?? "")
            guard placeholders(in: text).isSubset(of: allowed) else {
                throw .unknownPlaceholder(file: file, key: name)
            }
            table[key] = text
        }
        return table
    }

    /// English, with the direction a new language most likely needs.
    static func defaults(forNewLanguage tag: String, english: [StringKey: String]) -> [StringKey: String] {
        var table = english
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        if rightToLeft.contains(primary) { table[.direction] = "rtl" }
        return table
    }

    private static let rightToLeft: Set<String> = [
        "ar", "arc", "ckb", "dv", "fa", "he", "ks", "ps", "sd", "ug", "ur", "yi",
    ]

    /// The `{name}` placeholders in `text`.
    static func placeholders(in text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            found.insert(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        return found
    }
}
