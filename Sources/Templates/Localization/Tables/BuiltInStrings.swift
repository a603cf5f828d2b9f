/// The string tables compiled into the binary: English (the fallback, complete by definition)
/// plus Spanish, French, German, Portuguese and Japanese. Each language lives in its own file.
/// Operators override or add languages with JSON files (see `StringCatalog.loading(directory:)`).
enum BuiltInStrings {
    static let all: [String: [StringKey: String]] = [
        "en": english, "es": spanish, "fr": french, "de": german, "pt": portuguese, "ja": japanese,
    ]
}
