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
            switch role(field.name) {
            case .framing: continue
            case .hsts: sawHSTS = true
            case .other: break
            }
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

    /// What a handler's field is to the serializer.
    enum FieldRole { case framing, hsts, other }

    /// `Content-Length`, `Connection`, `Transfer-Encoding` and `Date` are the connection's
    /// (a handler's own values would contradict its framing); HSTS is added unless the
    /// handler set it. By length first: at most one comparison per field of every response.
    static func role(_ name: String) -> FieldRole {
        switch name.utf8.count {
        case 4: return HTTPHeaders.namesEqual(name, "date") ? .framing : .other
        case 10: return HTTPHeaders.namesEqual(name, "connection") ? .framing : .other
        case 14: return HTTPHeaders.namesEqual(name, "content-length") ? .framing : .other
        case 17: return HTTPHeaders.namesEqual(name, "transfer-encoding") ? .framing : .other
        case 25: return HTTPHeaders.namesEqual(name, "strict-transport-security") ? .hsts : .other
        default: return .other
        }
    }
}
