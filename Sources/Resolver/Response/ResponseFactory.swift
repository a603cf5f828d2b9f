import Core
import HTTPMessages

/// Builds every response of the endpoint, so that the headers every answer
/// must carry (`Cache-Control: no-store`, `Content-Type`, `X-Biq-Request-Id`) are
/// set in one place.
enum ResponseFactory {
    /// Contract obligation 5: a 2xx body is at most 64 KiB.
    static let maxSuccessBodyBytes = 65_536

    static func error(_ error: ResolverError, requestId: String) -> HTTPResponse {
        var body: [UInt8] = []
        body.reserveCapacity(160)
        body.append(contentsOf: #"{"error":{"code":"#.utf8)
        JSONWriter.writeString(error.code, into: &body)
        body.append(contentsOf: #","message":"#.utf8)
        JSONWriter.writeString(error.message, into: &body)
        body.append(contentsOf: error.usesStandardEnvelope ? #"},"request_id":"#.utf8 : #"},"requestId":"#.utf8)
        JSONWriter.writeString(requestId, into: &body)
        body.append(UInt8(ascii: "}"))
        var headers = baseHeaders(requestId, extra: 1)
        switch error {
        case .methodNotAllowed: headers.add("Allow", "POST")
        case .rateLimited(let seconds), .storeUnavailable(let seconds):
            headers.add("Retry-After", String(max(1, seconds)))
        default: break
        }
        return HTTPResponse(status: error.status, headers: headers, body: body)
    }

    /// A 200 from a stored response (`{"open":..,"click":..,"link":..,"attribution":..}`)
    /// plus the two keys that are never stored: the receipt (a compact JWS, as
    /// `SigningKey.sign` writes it) and the caller's request ID.
    static func success(stored: [UInt8], receipt: [UInt8]?, requestId: String) -> HTTPResponse {
        var j = JSONBuffer(capacity: stored.count + (receipt?.count ?? 4) + 160)
        j.bytes.append(contentsOf: stored[..<(stored.count - 1)])  // without the closing brace
        j.raw(#","attributionReceipt":"#)
        if let receipt {
            // Base64url and dots only, nothing to escape: copied without the byte check.
            j.bytes.append(UInt8(ascii: "\""))
            j.bytes.append(contentsOf: receipt)
            j.bytes.append(UInt8(ascii: "\""))
        } else {
            j.raw("null")
        }
        j.raw(#","requestId":"#)
        j.string(requestId)
        j.raw("}")
        return HTTPResponse(status: 200, headers: baseHeaders(requestId), body: j.bytes)
    }

    /// The three fields every answer carries, in one allocation with room for `extra` more.
    private static func baseHeaders(_ requestId: String, extra: Int = 0) -> HTTPHeaders {
        var h = HTTPHeaders()
        h.reserveCapacity(3 + extra)
        h.add("Content-Type", "application/json")
        h.add("Cache-Control", "no-store")
        h.add("X-Biq-Request-Id", requestId)
        return h
    }
}
