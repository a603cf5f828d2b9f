@testable import HTTP

/// Malformed and ambiguous requests with the exact status each must get. Shared by the
/// smuggling tests (one-shot) and the incremental tests (every split point).
enum ParserVectors {
    struct Vector {
        var name: String
        var raw: [UInt8]
        var status: Int
        var limits = HTTPLimits()
    }

    private static func v(_ name: String, _ raw: String, _ status: Int, limits: HTTPLimits = HTTPLimits()) -> Vector {
        Vector(name: name, raw: Array(raw.utf8), status: status, limits: limits)
    }

    private static func v(_ name: String, _ raw: [UInt8], _ status: Int) -> Vector {
        Vector(name: name, raw: raw, status: status)
    }

    static let post = "POST / HTTP/1.1\r\nHost: a\r\n"
    static let get = "GET / HTTP/1.1\r\nHost: a\r\n"
    static let chunkedPost = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
    static let small = HTTPLimits(maxRequestLineBytes: 64, maxHeaderBytes: 128, maxHeaderCount: 4, maxBodyBytes: 16)

    static let framing: [Vector] = [
        v("CL.TE", post + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG", 400),
        v("TE.CL", post + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGPOST", 400),
        v("TE.CL with CL 0", post + "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n", 400),
        v("TE obs-fold value", post + "Transfer-Encoding:\r\n chunked\r\n\r\n", 400),
        v("TE then obs-fold line", post + "Transfer-Encoding: chunked\r\n x\r\n\r\n", 400),
        v("obs-fold hiding TE", post + "X: y\r\n Transfer-Encoding: chunked\r\n\r\n", 400),
        v("TE space before colon", post + "Transfer-Encoding : chunked\r\n\r\n", 400),
        v("TE vertical tab", post + "Transfer-Encoding:\u{0B}chunked\r\n\r\n", 400),
        v("TE trailing NUL", post + "Transfer-Encoding: chunked\u{00}\r\n\r\n", 400),
        v("TE bare CR", post + "Transfer-Encoding: chunked\r\r\n\r\n", 400),
        v("TE empty", post + "Transfer-Encoding: \r\n\r\n", 400),
        v("TE only comma", post + "Transfer-Encoding: ,\r\n\r\n", 400),
        v("TE quoted", post + "Transfer-Encoding: \"chunked\"\r\n\r\n", 400),
        v("TE split token", post + "Transfer-Encoding: chu nked\r\n\r\n", 400),
        v("TE dangling parameter", post + "Transfer-Encoding: chunked;\r\n\r\n", 400),
        v("TE parameter without value", post + "Transfer-Encoding: chunked;q\r\n\r\n", 400),
        v("TE xchunked", post + "Transfer-Encoding: xchunked\r\n\r\n", 501),
        v("TE identity", post + "Transfer-Encoding: identity\r\n\r\n", 501),
        v("TE gzip, chunked", post + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
        v("TE chunked, chunked", post + "Transfer-Encoding: chunked, chunked\r\n\r\n", 501),
        v("TE chunked, identity", post + "Transfer-Encoding: chunked, identity\r\n\r\n", 501),
        v("TE chunked with parameter", post + "Transfer-Encoding: chunked; a=b\r\n\r\n", 501),
        v("TE chunked with empty element", post + "Transfer-Encoding: chunked,\r\n\r\n", 501),
        v("TE twice", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
        v("TE chunked then identity", post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n", 501),
        v("TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        v("CL plus sign", post + "Content-Length: +5\r\n\r\nhello", 400),
        v("CL negative", post + "Content-Length: -1\r\n\r\n", 400),
        v("CL list", post + "Content-Length: 5, 5\r\n\r\nhello", 400),
        v("CL list without space", post + "Content-Length: 5,5\r\n\r\nhello", 400),
        v("CL duplicate identical", post + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
        v("CL duplicate different", post + "Content-Length: 5\r\ncontent-length: 6\r\n\r\nhello!", 400),
        v("CL hex", post + "Content-Length: 0x5\r\n\r\nhello", 400),
        v("CL inner space", post + "Content-Length: 1 2\r\n\r\n", 400),
        v("CL empty", post + "Content-Length:\r\n\r\n", 400),
        v("CL decimal point", post + "Content-Length: 5.0\r\n\r\n", 400),
        v("CL exponent", post + "Content-Length: 1e3\r\n\r\n", 400),
        v("CL overflowing", post + "Content-Length: 99999999999999999999999\r\n\r\n", 400),
        v("CL NUL", post + "Content-Length: 5\u{00}\r\n\r\nhello", 400),
        v("CL space before colon", post + "Content-Length : 5\r\n\r\nhello", 400),
        v("CL over the body limit", post + "Content-Length: 1048577\r\n\r\n", 413),
        v("CL over the body limit, huge", post + "Content-Length: 9223372036854775807\r\n\r\n", 413),
    ]

    static let chunks: [Vector] = [
        v("chunk size 0x5", chunkedPost + "0x5\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk size -1", chunkedPost + "-1\r\n\r\n", 400),
        v("chunk size +5", chunkedPost + "+5\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk size 17 digits", chunkedPost + "00000000000000005\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk size overflowing", chunkedPost + "fffffffffffffffff\r\n", 400),
        v("chunk size huge", chunkedPost + "7fffffffffffffff\r\n", 413),
        v("chunk size over the body limit", chunkedPost + "100001\r\n", 413),
        v("chunks summing over the body limit", chunkedPost + "8\r\n12345678\r\n9\r\n", 413, limits: small),
        v("chunk size empty", chunkedPost + "\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk size with trailing space", chunkedPost + "5 \r\nhello\r\n0\r\n\r\n", 400),
        v("chunk size bare LF", chunkedPost + "5\nhello\r\n0\r\n\r\n", 400),
        v("chunk size not hex", chunkedPost + "g\r\n", 400),
        v("chunk missing CRLF after data", chunkedPost + "5\r\nhelloX\r\n0\r\n\r\n", 400),
        v("chunk data too long for its size", chunkedPost + "3\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk data followed by bare LF", chunkedPost + "5\r\nhello\n0\r\n\r\n", 400),
        v("chunk data followed by CR only", chunkedPost + "5\r\nhello\r0\r\n\r\n", 400),
        v("chunk extension without name", chunkedPost + "5;\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk extension unterminated quote", chunkedPost + "5;a=\"x\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk extension with control", chunkedPost + "5;a=\u{01}\r\nhello\r\n0\r\n\r\n", 400),
        v("chunk extension too long", chunkedPost + "5;a=" + String(repeating: "x", count: 1100) + "\r\n", 400),
        v("chunk extension too long, unfinished", chunkedPost + "5;a=" + String(repeating: "x", count: 1100), 400),
        v("last chunk bare LF end", chunkedPost + "0\r\n\n", 400),
        v("trailer obs-fold", chunkedPost + "0\r\nA: b\r\n c\r\n\r\n", 400),
        v("trailer without colon", chunkedPost + "0\r\nnot a field\r\n\r\n", 400),
        v("trailer NUL", chunkedPost + "0\r\nA: \u{00}\r\n\r\n", 400),
        v(
            "trailers too large", chunkedPost + "0\r\nA: " + String(repeating: "x", count: 200) + "\r\n\r\n", 431,
            limits: small),
        v(
            "chunk framing far larger than the data",
            chunkedPost + String(repeating: "1;e=" + String(repeating: "x", count: 1000) + "\r\nx\r\n", count: 5), 413,
            limits: small),
        v("too many trailers", chunkedPost + "0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\nE: 5\r\n\r\n", 431, limits: small),
    ]

    static let fields: [Vector] = [
        v("NUL in header value", get + "X: a\u{00}b\r\n\r\n", 400),
        v("bare CR in header value", get + "X: a\rb\r\n\r\n", 400),
        v("bare LF ending a header", get + "X: a\n\r\n", 400),
        v("DEL in header value", get + "X: a\u{7F}\r\n\r\n", 400),
        v("escape in header value", get + "X: a\u{1B}[0m\r\n\r\n", 400),
        v("space in header name", get + "Bad Name: x\r\n\r\n", 400),
        v("space before colon", get + "X : y\r\n\r\n", 400),
        v("tab before colon", get + "X\t: y\r\n\r\n", 400),
        v("control char in header name", get + "X\u{01}Y: z\r\n\r\n", 400),
        v("non-ASCII header name", Array((get + "X").utf8) + [0xC3, 0xA9] + Array(": z\r\n\r\n".utf8), 400),
        v("empty header name", get + ": value\r\n\r\n", 400),
        v("header without colon", get + "NoColon\r\n\r\n", 400),
        v("obs-fold", get + "X: a\r\n\tb\r\n\r\n", 400),
        v("whitespace before first header", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400),
        v("separator in header name", get + "X(y): z\r\n\r\n", 400),
        v("missing Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400),
        v("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        v("two Hosts differing case", "GET / HTTP/1.1\r\nHost: a\r\nhOST: b\r\n\r\n", 400),
        v("two Hosts in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        v("Host with space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        v("Host empty", "GET / HTTP/1.1\r\nHost:\r\n\r\n", 400),
        v("Host userinfo", "GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", 400),
        v("Host with path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
        v("Host with comma", "GET / HTTP/1.1\r\nHost: a,b\r\n\r\n", 400),
        v("Host bad port", "GET / HTTP/1.1\r\nHost: a:8x\r\n\r\n", 400),
        v("Host long port", "GET / HTTP/1.1\r\nHost: a:123456\r\n\r\n", 400),
        v("Host unclosed IPv6", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
        v("Host percent-encoded", "GET / HTTP/1.1\r\nHost: a%2eb\r\n\r\n", 400),
        v("invalid Host in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a b\r\n\r\n", 400),
    ]

    static let requestLines: [Vector] = [
        v("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        v("HTTP/0.9 version", "GET / HTTP/0.9\r\n\r\n", 505),
        v("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505),
        v("lower-case http/1.1", "GET / http/1.1\r\nHost: a\r\n\r\n", 400),
        v("HTTP/2", "GET / HTTP/2\r\nHost: a\r\n\r\n", 400),
        v("HTTP/1.10", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", 400),
        v("HTTP/11", "GET / HTTP/11\r\nHost: a\r\n\r\n", 400),
        v("trailing space after version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),
        v("no version (HTTP/0.9)", "GET /\r\n\r\n", 400),
        v("double space", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("tab separator", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("leading space", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("bare LF after request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", 400),
        v("bare CR after request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", 400),
        v("bare LF only", "GET / HTTP/1.1\nHost: a\n\n", 400),
        v("separator in method", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("NUL in method", "GE\u{00}T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("control in target", "GET /a\u{01}b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("DEL in target", "GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("non-ASCII in target", Array("GET /".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
        v("relative target", "GET index.html HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("asterisk with GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("asterisk with suffix", "OPTIONS *x HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("authority-form with GET", "GET a.example:443 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("CONNECT", "CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n", 400),
        v("ftp absolute-form", "GET ftp://a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("absolute-form without host", "GET http:///x HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("absolute-form with userinfo", "GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("absolute-form bad port", "GET http://a:x/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("empty line only then garbage", "\r\n\u{16}\u{03}\u{01}\r\n", 400),
        v(
            "TLS hello on the plain port",
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03, 0x0D, 0x0A], 400),
        v("too many leading empty lines", "\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        v("leading bare LF", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    ]

    static let limits: [Vector] = [
        v(
            "absurdly long request line",
            "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        v("absurdly long request line, unfinished", "GET /" + String(repeating: "a", count: 9000), 414),
        v("long garbage without LF", String(repeating: "x", count: 8300), 414),
        v(
            "request line one over the limit", "GET /" + String(repeating: "a", count: 51) + " HTTP/1.1\r\n\r\n", 414,
            limits: small),
        v("head too large", get + "X: " + String(repeating: "a", count: 17000) + "\r\n\r\n", 431),
        v("head too large, unfinished", get + "X: " + String(repeating: "a", count: 17000), 431),
        v("many small headers", get + String(repeating: "X: y\r\n", count: 3000) + "\r\n", 431),
        v("many headers", get + (0..<100).map { "X-\($0): y\r\n" }.joined() + "\r\n", 431),
        v("five headers over four", get + "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", 431, limits: small),
        v("body over the limit", post + "Content-Length: 17\r\n\r\n", 413, limits: small),
    ]

    static let all: [Vector] = framing + chunks + fields + requestLines + limits

    /// Well-formed inputs (single, pipelined, partial) for the split-point property.
    static let valid: [[UInt8]] = [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "\r\n\r\nGET /x?y=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST /api/v1/track/open HTTP/1.1\r\nHost: go.example.com\r\nContent-Type: application/json\r\n"
            + "Content-Length: 17\r\n\r\n{\"platform\":\"ios\"}",
        chunkedPost + "5;a=b;c=\"d e\"\r\nhello\r\n6\r\n world\r\n0\r\nT: 1\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\nPOST /c HTTP/1.1\r\nHost: a\r\n"
            + "Content-Length: 2\r\n\r\nokGET /d HTTP/1.1\r\nHo",
        "GET http://a.example/x HTTP/1.1\r\nHost: b\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: a:80\r\n\r\n",
    ].map { Array($0.utf8) }
}
