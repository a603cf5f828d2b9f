import Model

/// The web destination a visit is sent to, composed from the URL the plan chose, the
/// link's UTM parameters and, when `passQuery` is on, the visitor's query (decision 0032).
/// Visits of a link with options take it from `PreparedOptions`, which prepares each
/// destination once (`PreparedDestination`); this composes one afresh.
public enum WebDestination {
    /// The composed URL's limit, in bytes: past it, none of the visitor's parameters pass.
    public static let maxBytes = 4_096

    public static func compose(_ url: String, utm: UTMParameters?, visitorQuery: Substring?) -> String {
        let visitor = visitorQuery.flatMap { $0.isEmpty ? nil : $0 }
        if (utm?.parameters ?? []).isEmpty && visitor == nil { return url }
        return PreparedDestination(url, utm: utm).with(visitorQuery: visitor)
    }

    /// `bq_*` and `biqli_*` are the edge's own parameters (the click id, the SDKs'): never
    /// passed on, whatever their case.
    static func isEdgeOwn<Name: Collection<UInt8>>(_ name: Name) -> Bool {
        hasPrefixIgnoringASCIICase(name, "bq_") || hasPrefixIgnoringASCIICase(name, "biqli_")
    }

    private static func hasPrefixIgnoringASCIICase<Name: Collection<UInt8>>(_ name: Name, _ prefix: StaticString)
        -> Bool
    {
        guard name.count >= prefix.utf8CodeUnitCount else { return false }
        var i = name.startIndex
        for p in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
            var b = name[i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != p { return false }
            name.formIndex(after: &i)
        }
        return true
    }

    static func name(_ pair: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        pair.firstIndex(of: UInt8(ascii: "=")).map { pair[..<$0] } ?? pair
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
