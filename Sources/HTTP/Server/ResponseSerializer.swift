import HTTPMessages

/// Writes HTTP/1.1 responses into an output buffer.
enum ResponseSerializer {
    /// Status lines for every code below 600, built once.
    private static let statusLines: [[UInt8]] = (0..<600).map {
        Array("HTTP/1.1 \($0) \(HTTPStatus.reason($0))\r\n".utf8)
    }

    static func statusLine(_ status: Int) -> [UInt8] {
        if status >= 0 && status < statusLines.count { return statusLines[status] }
        return Array("HTTP/1.1 \(status) Status\r\n".utf8)
    }

    /// Serializes `response`. Adds `Date`, `Content-Length` (except where the status
    /// forbids a body), `Connection` when it differs from the default of the request's
    /// version, and HSTS on TLS connections unless the handler set one.
    static func write(
        _ response: HTTPResponse, into out: ByteBuffer, date: [UInt8], omitBody: Bool, keepAlive: Bool,
        requestMinorVersion: Int, hsts: String?
    ) {
        out.append(statusLine(response.status))
        out.append("Date: ")
        out.append(date)
        out.append("\r\n")
        let bodyAllowed = !(response.status == 204 || response.status == 304 || response.status < 200)
        if bodyAllowed {
            out.append("Content-Length: ")
            out.append(decimal: response.body.count)
            out.append("\r\n")
        }
        if !keepAlive {
            out.append("Connection: close\r\n")
        } else if requestMinorVersion == 0 {
            out.append("Connection: keep-alive\r\n")
        }
        var sawHSTS = false
        for field in response.headers.fields {
            // The connection owns framing; a handler's own values would contradict it.
            if HTTPHeaders.namesEqual(field.name, "content-length") || HTTPHeaders.namesEqual(field.name, "connection")
                || HTTPHeaders.namesEqual(field.name, "transfer-encoding") || HTTPHeaders.namesEqual(field.name, "date")
            {
                continue
            }
            if HTTPHeaders.namesEqual(field.name, "strict-transport-security") { sawHSTS = true }
            out.append(field.name)
            out.append(": ")
            out.append(field.value)
            out.append("\r\n")
        }
        if let hsts, !sawHSTS {
            out.append("Strict-Transport-Security: ")
            out.append(hsts)
            out.append("\r\n")
        }
        out.append("\r\n")
        if bodyAllowed && !omitBody { out.append(response.body) }
    }
}
