import HTTPMessages

/// One `/api/v1/track/open` request as the HTTP layer hands it over.
public struct ResolveInput: Sendable {
    /// The request as parsed (method, lower-case header names in arrival order, body).
    public var request: HTTPRequest
    /// The client's address, already resolved through trusted proxies by the edge.
    public var sourceAddress: String
    /// Receipt time, milliseconds since the epoch: it, not the client's
    /// `occurredAt`, controls matching, expiry and rate limits.
    public var now: Int64
    /// The event loop the request arrived on: the resolver reads through that
    /// loop's `StoreReader` and must therefore be called on that loop's thread.
    public var readerLoop: Int

    public init(request: HTTPRequest, sourceAddress: String, now: Int64, readerLoop: Int) {
        self.request = request
        self.sourceAddress = sourceAddress
        self.now = now
        self.readerLoop = readerLoop
    }

    /// The value of header `name` (lower-case) when it occurs exactly once, with
    /// optional whitespace trimmed; `.missing` or `.repeated` otherwise.
    func header(_ name: String) -> HeaderLookup {
        var found: String?
        for field in request.headers.fields where field.name == name {
            if found != nil { return .repeated }
            found = field.value
        }
        guard let found else { return .missing }
        return .value(found.trimmingOptionalWhitespace())
    }
}

enum HeaderLookup: Equatable {
    case missing
    case repeated
    case value(String)

    var value: String? {
        if case .value(let v) = self { return v }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP optional whitespace).
    /// Works on UTF-8 code units: the common case (nothing to trim) costs two
    /// byte reads.
    func trimmingOptionalWhitespace() -> String {
        let u = utf8
        func isOWS(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        guard let first = u.first, let last = u.last, isOWS(first) || isOWS(last) else { return String(self) }
        var start = u.startIndex
        var end = u.endIndex
        while start < end, isOWS(u[start]) { start = u.index(after: start) }
        while end > start, isOWS(u[u.index(before: end)]) { end = u.index(before: end) }
        return String(Substring(u[start..<end]))
    }
}

extension String {
    func trimmingOptionalWhitespace() -> String {
        let u = utf8
        guard let first = u.first, let last = u.last, first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
        else { return self }
        return Substring(self).trimmingOptionalWhitespace()
    }
}
