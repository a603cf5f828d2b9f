/// One language's complete table, as the pages use it.
struct LocalizedStrings: Sendable {
    /// Lower-case language tag (`en`, `pt-br`), for `lang` and `Content-Language`.
    let language: String
    let table: [StringKey: String]

    /// `ltr` or `rtl`.
    var direction: String { table[.direction] == "rtl" ? "rtl" : "ltr" }

    subscript(key: StringKey) -> String { table[key] ?? "" }

    /// The text of `key` with `{app}` replaced by `app` (or by `app.generic` when nil). One pass,
    /// so an app name containing `{app}` is not expanded again.
    func text(_ key: StringKey, app: String?) -> String {
        filled(self[key], marker: "{app}", with: app ?? self[.appGeneric])
    }

    /// The text of `key` with `{browser}` replaced by the in-app browser's name, in one pass.
    func text(_ key: StringKey, browser: String) -> String {
        filled(self[key], marker: "{browser}", with: browser)
    }

    private func filled(_ template: String, marker: String, with value: String) -> String {
        let marker = Array(marker.utf8)
        let bytes = Array(template.utf8)
        guard bytes.count >= marker.count else { return template }
        let name = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + name.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == marker[0] && i + marker.count <= bytes.count
                && bytes[i..<(i + marker.count)].elementsEqual(marker)
            {
                out.append(contentsOf: name)
                i += marker.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
