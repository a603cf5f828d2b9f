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

        // On the URL's bytes, not its characters: a visit of a link with options composes
        // one of these, and Character-wise indexing cost 60,000 instructions a visit.
        let bytes = Array(url.utf8)
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let questionMark = bytes[..<hash].firstIndex(of: UInt8(ascii: "?"))
        let base = bytes[..<(questionMark ?? hash)]
        let fragment = bytes[hash...]
        var names: [ArraySlice<UInt8>] = []
        var query: [UInt8] = []
        query.reserveCapacity(bytes.count + 64 * utmParameters.count)
        if let questionMark {
            for pair in bytes[(questionMark + 1)..<hash].split(separator: UInt8(ascii: "&")) {
                let name = Self.name(pair)
                if utmParameters.contains(where: { $0.0.utf8.elementsEqual(name) }) { continue }
                names.append(name)
                append(pair, to: &query)
            }
        }
        for (name, value) in utmParameters {
            names.append(ArraySlice(name.utf8))
            if !query.isEmpty { query.append(UInt8(ascii: "&")) }
            query.append(contentsOf: name.utf8)
            query.append(UInt8(ascii: "="))
            percentEncode(value, into: &query)
        }
        let composed = assemble(base, query, fragment)
        guard let visitor else { return composed }

        var passed = query
        let visitorBytes = Array(visitor.utf8)
        for pair in visitorBytes.split(separator: UInt8(ascii: "&")) {
            let name = Self.name(pair)
            guard !name.isEmpty, !isEdgeOwn(name), !names.contains(where: { $0.elementsEqual(name) }) else {
                continue
            }
            append(pair, to: &passed)
            if passed.count > maxBytes { return composed }
        }
        guard base.count + 1 + passed.count + fragment.count <= maxBytes else { return composed }
        return assemble(base, passed, fragment)
    }

    private static func append(_ pair: ArraySlice<UInt8>, to query: inout [UInt8]) {
        if !query.isEmpty { query.append(UInt8(ascii: "&")) }
        query.append(contentsOf: pair)
    }

    /// `bq_*` and `biqli_*` are the edge's own parameters (the click id, the SDKs'): never
    /// passed on, whatever their case.
    static func isEdgeOwn(_ name: ArraySlice<UInt8>) -> Bool {
        hasPrefixIgnoringASCIICase(name, "bq_") || hasPrefixIgnoringASCIICase(name, "biqli_")
    }

    private static func hasPrefixIgnoringASCIICase(_ name: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        guard name.count >= prefix.utf8CodeUnitCount else { return false }
        var i = name.startIndex
        for p in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
            var b = name[i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != p { return false }
            i += 1
        }
        return true
    }

    static func name(_ pair: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        pair.firstIndex(of: UInt8(ascii: "=")).map { pair[..<$0] } ?? pair
    }

    static func assemble(_ base: ArraySlice<UInt8>, _ query: [UInt8], _ fragment: ArraySlice<UInt8>) -> String {
        let count = base.count + (query.isEmpty ? 0 : 1 + query.count) + fragment.count
        return String(unsafeUninitializedCapacity: count) { out in
            var o = out.initialize(fromContentsOf: base)
            if !query.isEmpty {
                out[o] = UInt8(ascii: "?")
                o += 1
                o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: query)
            }
            return o + UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: fragment)
        }
    }

    /// RFC 3986's unreserved characters as they are, every other byte as `%XX`.
    static func percentEncode(_ value: String, into out: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        for b in value.utf8 {
            let unreserved =
                (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
                || b == 0x2E || b == 0x5F || b == 0x7E
            if unreserved {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex.utf8Start[Int(b >> 4)])
                out.append(hex.utf8Start[Int(b & 0x0F)])
            }
        }
    }
}
