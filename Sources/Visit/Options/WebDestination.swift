import Model

/// The web destination a visit is sent to, composed from the URL the plan chose, the
/// link's UTM parameters and, when `passQuery` is on, the visitor's query (decision 0032).
/// Order of the query: the destination's own parameters (less those UTM replaces), then
/// UTM's, then the visitor's that no earlier one names; a fragment stays last.
public enum WebDestination {
    /// The composed URL's limit, in bytes: past it, none of the visitor's parameters pass.
    public static let maxBytes = 4_096

    public static func compose(_ url: String, utm: UTMParameters?, visitorQuery: Substring?) -> String {
        let utmParameters = utm?.parameters ?? []
        let visitor = visitorQuery.flatMap { $0.isEmpty ? nil : $0 }
        if utmParameters.isEmpty && visitor == nil { return url }

        let (base, ownQuery, fragment) = split(url)
        var names: [Substring] = []
        var query = ""
        func append(_ pair: Substring) {
            if !query.isEmpty { query += "&" }
            query += pair
        }
        for pair in ownQuery?.split(separator: "&") ?? [] {
            let name = Self.name(pair)
            if utmParameters.contains(where: { $0.0.utf8.elementsEqual(name.utf8) }) { continue }
            names.append(name)
            append(pair)
        }
        for (name, value) in utmParameters {
            names.append(Substring(name))
            append(Substring(name + "=" + percentEncoded(value)))
        }
        let composed = assemble(base, query, fragment)
        guard let visitor else { return composed }

        var passed = query
        for pair in visitor.split(separator: "&") {
            let name = Self.name(pair)
            guard !name.isEmpty, !isEdgeOwn(name), !names.contains(where: { $0.utf8.elementsEqual(name.utf8) }) else {
                continue
            }
            if !passed.isEmpty { passed += "&" }
            passed += pair
            if passed.utf8.count > maxBytes { return composed }
        }
        let result = assemble(base, passed, fragment)
        return result.utf8.count > maxBytes ? composed : result
    }

    /// `bq_*` and `biqli_*` are the edge's own parameters (the click id, the SDKs'): never
    /// passed on, whatever their case.
    static func isEdgeOwn(_ name: Substring) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("bq_") || lower.hasPrefix("biqli_")
    }

    static func name(_ pair: Substring) -> Substring {
        pair.firstIndex(of: "=").map { pair[..<$0] } ?? pair
    }

    /// The URL before its query, the query (without `?`), the fragment (with `#`).
    static func split(_ url: String) -> (Substring, Substring?, Substring) {
        let whole = url[...]
        let hash = whole.firstIndex(of: "#") ?? whole.endIndex
        let fragment = whole[hash...]
        let beforeFragment = whole[..<hash]
        guard let q = beforeFragment.firstIndex(of: "?") else { return (beforeFragment, nil, fragment) }
        return (beforeFragment[..<q], beforeFragment[beforeFragment.index(after: q)...], fragment)
    }

    static func assemble(_ base: Substring, _ query: String, _ fragment: Substring) -> String {
        var out = String(base)
        if !query.isEmpty {
            out += "?"
            out += query
        }
        out += fragment
        return out
    }

    /// RFC 3986's unreserved characters as they are, every other byte as `%XX`.
    static func percentEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for b in value.utf8 {
            let unreserved =
                (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
