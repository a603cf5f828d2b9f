import Model

/// One web destination of a link with its UTM parameters in place (decision 0032), built
/// once per link and destination (`PreparedOptions`) so that a visit only appends the
/// visitor's query when `passQuery` lets it: composing the UTM parameters on every visit
/// cost 18,000 instructions, more than half of a plain visit.
///
/// Order of the query: the destination's own parameters (less those UTM replaces), then
/// UTM's, then the visitor's that no earlier one names; a fragment stays last.
public struct PreparedDestination: Sendable {
    /// Where a visit goes when none of the visitor's parameters pass: the URL as given
    /// when there is no UTM, else `normalized`.
    public let url: String
    /// The URL rebuilt from its parts (an empty query's `?` dropped): the visitor's
    /// parameters are inserted into it at `queryEnd`.
    let normalized: [UInt8]
    /// Offset in `normalized` of the fragment's `#`, or its length.
    let queryEnd: Int
    /// Whether `normalized` has a query: the visitor's first parameter follows `&`, else `?`.
    let hasQuery: Bool
    /// The names of the parameters in `normalized`'s query: a visitor's of the same name
    /// does not pass.
    let names: [[UInt8]]

    public init(_ url: String, utm: UTMParameters?) {
        let utmParameters = utm?.parameters ?? []
        let bytes = Array(url.utf8)
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let questionMark = bytes[..<hash].firstIndex(of: UInt8(ascii: "?"))
        var names: [[UInt8]] = []
        var query: [UInt8] = []
        if let questionMark {
            for pair in bytes[(questionMark + 1)..<hash].split(separator: UInt8(ascii: "&")) {
                let name = WebDestination.name(pair)
                if utmParameters.contains(where: { $0.0.utf8.elementsEqual(name) }) { continue }
                names.append(Array(name))
                Self.append(pair, to: &query)
            }
        }
        for (name, value) in utmParameters {
            names.append(Array(name.utf8))
            if !query.isEmpty { query.append(UInt8(ascii: "&")) }
            query.append(contentsOf: name.utf8)
            query.append(UInt8(ascii: "="))
            WebDestination.percentEncode(value, into: &query)
        }
        var normalized = Array(bytes[..<(questionMark ?? hash)])
        if !query.isEmpty {
            normalized.append(UInt8(ascii: "?"))
            normalized.append(contentsOf: query)
        }
        self.queryEnd = normalized.count
        normalized.append(contentsOf: bytes[hash...])
        self.normalized = normalized
        self.hasQuery = !query.isEmpty
        self.names = names
        self.url = utmParameters.isEmpty ? url : String(decoding: normalized, as: UTF8.self)
    }

    /// The destination with the visitor's query (`passQuery`): its parameters that are not
    /// the edge's own and that the destination does not name, in their order. None of them
    /// when the result would pass `WebDestination.maxBytes`.
    public func with(visitorQuery: Substring?) -> String {
        guard let visitorQuery, !visitorQuery.isEmpty else { return url }
        var query = visitorQuery
        return query.withUTF8 { visitor in
            // At most everything: the output is written in place, no intermediate array.
            let room = normalized.count + 1 + visitor.count
            let composed = String(unsafeUninitializedCapacity: room) { out in
                var o = normalized.withUnsafeBufferPointer { source in
                    out.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: source[..<queryEnd]))
                }
                var separator = hasQuery ? UInt8(ascii: "&") : UInt8(ascii: "?")
                var passed = false
                var start = 0
                while start < visitor.count {
                    var end = start
                    while end < visitor.count && visitor[end] != UInt8(ascii: "&") { end += 1 }
                    let pair = UnsafeBufferPointer(rebasing: visitor[start..<end])
                    start = end + 1
                    if !passes(pair) { continue }
                    out[o] = separator
                    separator = UInt8(ascii: "&")
                    o += 1
                    o += UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(fromContentsOf: pair)
                    passed = true
                }
                o += normalized.withUnsafeBufferPointer { source in
                    UnsafeMutableBufferPointer(rebasing: out[o...]).initialize(
                        fromContentsOf: UnsafeBufferPointer(rebasing: source[queryEnd...]))
                }
                // Empty: nothing passed or too long; the caller then answers `normalized`.
                return passed && o <= WebDestination.maxBytes ? o : 0
            }
            return composed.isEmpty ? String(decoding: normalized, as: UTF8.self) : composed
        }
    }

    /// Whether a visitor's `name=value` goes on: a name, not the edge's own, not named by
    /// the destination or UTM.
    private func passes(_ pair: UnsafeBufferPointer<UInt8>) -> Bool {
        var nameEnd = 0
        while nameEnd < pair.count && pair[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
        let name = pair[..<nameEnd]
        if name.isEmpty || WebDestination.isEdgeOwn(name) { return false }
        for known in names where known.count == name.count && known.elementsEqual(name) { return false }
        return true
    }

    private static func append(_ pair: ArraySlice<UInt8>, to query: inout [UInt8]) {
        if !query.isEmpty { query.append(UInt8(ascii: "&")) }
        query.append(contentsOf: pair)
    }
}
