/// Reads an HTTP/1.1 response from bytes as they arrive: the status line and fields, then
/// a body framed by `Content-Length`, by chunks, or by the end of the connection. Pure,
/// so that every framing is tested without a socket.
struct ResponseParser {
    enum Outcome {
        /// More bytes needed (`ended`: the connection closed, which ends a body without framing).
        case incomplete
        case done(HTTPSResponse)
        case invalid(String)
    }

    /// The largest response head and body taken (the CA's answers are a few KB; a chain
    /// is under 10 KB).
    static let maxHead = 64 * 1024
    static let maxBody = 4 * 1024 * 1024

    /// When more than `maxBody` bytes of body have come: the answer with its head and the
    /// first `maxBody` bytes (the rest is not read); nil before, or without a whole head.
    static func truncated(_ bytes: [UInt8], maxBody: Int) -> HTTPSResponse? {
        guard bytes.count > maxBody, let headEnd = find(bytes, [13, 10, 13, 10], from: 0),
            bytes.count - headEnd - 4 > maxBody,
            case .done(var response) = parse(
                Array(bytes[..<(headEnd + 4)]), headOnly: true, ended: false)
        else { return nil }
        response.body = Array(bytes[(headEnd + 4)..<(headEnd + 4 + maxBody)])
        return response
    }

    /// Parses `bytes` (everything received so far). `headOnly`: an answer to HEAD, which
    /// has no body whatever its fields say. `ended`: the peer closed its side.
    /// `limit`: the largest body taken (a caller that reads at most so much of an answer
    /// passes `Int.max` and cuts it with `truncated`).
    static func parse(_ bytes: [UInt8], headOnly: Bool, ended: Bool, limit: Int = maxBody) -> Outcome {
        guard let headEnd = find(bytes, [13, 10, 13, 10], from: 0) else {
            if bytes.count > maxHead { return .invalid("response head too large") }
            return ended ? .invalid("connection closed before the response head") : .incomplete
        }
        var lines: [String] = []
        var lineStart = 0
        while let end = find(bytes, [13, 10], from: lineStart), end <= headEnd {
            lines.append(String(decoding: bytes[lineStart..<end], as: UTF8.self))
            lineStart = end + 2
        }
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]),
            (100...599).contains(status)
        else { return .invalid("malformed status line") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return .invalid("malformed header field") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmed(" ")))
        }
        let response = HTTPSResponse(status: status, headers: headers, body: [])
        let bodyStart = headEnd + 4
        if headOnly || status == 204 || status == 304 || status < 200 { return .done(response) }
        if let coding = response.header("transfer-encoding") {
            guard coding.lowercased() == "chunked" else { return .invalid("unsupported transfer coding") }
            return chunked(bytes, from: bodyStart, response: response, ended: ended, limit: limit)
        }
        if let lengthText = response.header("content-length") {
            guard let length = Int(lengthText), length >= 0 else { return .invalid("malformed Content-Length") }
            guard length <= limit else { return .invalid("response body too large") }
            if bytes.count - bodyStart < length {
                return ended ? .invalid("connection closed inside the body") : .incomplete
            }
            var done = response
            done.body = Array(bytes[bodyStart..<(bodyStart + length)])
            return .done(done)
        }
        // No framing: the body runs to the end of the connection.
        if bytes.count - bodyStart > limit { return .invalid("response body too large") }
        guard ended else { return .incomplete }
        var done = response
        done.body = Array(bytes[bodyStart...])
        return .done(done)
    }

    private static func chunked(
        _ bytes: [UInt8], from start: Int, response: HTTPSResponse, ended: Bool, limit: Int
    ) -> Outcome {
        var at = start
        var body: [UInt8] = []
        let more: Outcome = ended ? .invalid("connection closed inside a chunked body") : .incomplete
        while true {
            guard let lineEnd = find(bytes, [13, 10], from: at) else { return more }
            let sizeText = String(decoding: bytes[at..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmed(" "), radix: 16), size >= 0 else {
                return .invalid("malformed chunk size")
            }
            guard body.count + size <= limit else { return .invalid("response body too large") }
            at = lineEnd + 2
            if size == 0 {
                // Trailer fields, then the empty line.
                while true {
                    guard let end = find(bytes, [13, 10], from: at) else { return more }
                    if end == at {
                        var done = response
                        done.body = body
                        return .done(done)
                    }
                    at = end + 2
                }
            }
            guard bytes.count >= at + size + 2 else { return more }
            body.append(contentsOf: bytes[at..<(at + size)])
            guard bytes[at + size] == 13, bytes[at + size + 1] == 10 else { return .invalid("malformed chunk") }
            at += size + 2
        }
    }

    private static func find(_ bytes: [UInt8], _ needle: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        var i = from
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}
