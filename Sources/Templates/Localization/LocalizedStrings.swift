/// One language's complete table, as the pages use it.
struct LocalizedStrings: Sendable {
    /// Lower-case language tag (`en`, `pt-br`), for `lang` and `Content-Language`.
    let language: String
    let table: [StringKey: String]

    /// `ltr` or `rtl`.
    var direction: String { table[.direction] == "rtl" ? "rtl" : "ltr" }

    subscript(key: StringKey) -> String { table[key] ?? "" }

    /// The text of `key` with `{app}` replaced by `app` (or by `app.generic` when nil).
    func text(_ key: StringKey, app: String?) -> String {
        let name = app ?? self[.appGeneric]
        return self[key].replacing("{app}", with: name)
    }
}
