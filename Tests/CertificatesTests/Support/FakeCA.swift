import COpenSSL
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTPS server standing for a CA in the manager's tests: its directory (with
/// `renewalInfo`, RFC 9773) and its renewal information, from `answer`. Keeps the paths
/// asked. One request per connection, as the edge's client sends them.
// @unchecked: it holds an OpenSSL SSL_CTX and a listening socket, set up in `init` and
// only read after; what changes is behind `Mutex`es.
final class FakeCA: @unchecked Sendable {
    typealias Answer = (status: Int, headers: [(String, String)], body: String)

    let port: UInt16
    /// The CA's HTTPS certificate: the roots file the edge's client trusts.
    let certificateFile: String
    private let context: OpaquePointer
    private let listener: Int32
    private let paths = Mutex<[String]>([])
    private let answer: @Sendable (_ path: String) -> Answer?
    private let done = DispatchSemaphore(value: 0)

    /// `answer`: the reply to a GET of `path` other than the directory (nil: 404).
    init(directory: String, answer: @escaping @Sendable (String) -> Answer?) throws {
        self.answer = answer
        certificateFile = directory + "/ca-https.pem"
        let made = try OpenSSLTool.run(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                "ca-https.key", "-out", "ca-https.pem", "-days", "2", "-subj", "/CN=localhost", "-addext",
                "subjectAltName=IP:127.0.0.1",
            ], in: directory)
        guard made.status == 0 else { throw OpenSSLTool.Failure(description: made.output) }
        guard let ctx = SSL_CTX_new(TLS_server_method()),
            SSL_CTX_use_certificate_file(ctx, certificateFile, SSL_FILETYPE_PEM) == 1,
            SSL_CTX_use_PrivateKey_file(ctx, directory + "/ca-https.key", SSL_FILETYPE_PEM) == 1
        else { throw OpenSSLTool.Failure(description: "the fake CA's TLS context") }
        context = ctx
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                bind(fd, a, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, a, &length) == 0
            }
        }
        guard bound else { throw OpenSSLTool.Failure(description: "the fake CA's socket") }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            serve()
            done.signal()
        }
        thread.start()
    }

    var directoryURL: String { "https://127.0.0.1:\(port)/dir" }

    /// The paths asked so far, in order.
    var asked: [String] { paths.withLock { $0 } }

    func count(prefix: String) -> Int { asked.filter { $0.hasPrefix(prefix) }.count }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
        SSL_CTX_free(context)
    }

    private func serve() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            handle(fd)
            close(fd)
        }
    }

    private func handle(_ fd: Int32) {
        guard let ssl = SSL_new(context) else { return }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        guard SSL_accept(ssl) == 1 else { return }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(sequence: Array("\r\n\r\n".utf8)) {
            let n = SSL_read(ssl, &buffer, Int32(buffer.count))
            guard n > 0 else { return }
            received += buffer[0..<Int(n)]
        }
        let line = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return }
        let path = String(parts[1])
        paths.withLock { $0.append(path) }
        var reply: Answer = (404, [], "")
        if path == "/dir" {
            let base = "https://127.0.0.1:\(port)"
            reply = (
                200, [("Content-Type", "application/json")],
                #"{"newNonce":"\#(base)/nonce","newAccount":"\#(base)/account","newOrder":"\#(base)/order","#
                    + #""renewalInfo":"\#(base)/renewal-info"}"#
            )
        } else if let answered = answer(path) {
            reply = answered
        }
        var text = "HTTP/1.1 \(reply.status) X\r\nContent-Length: \(reply.body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in reply.headers { text += "\(name): \(value)\r\n" }
        let out = Array((text + "\r\n" + reply.body).utf8)
        _ = out.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        SSL_shutdown(ssl)
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(sequence: [UInt8]) -> Bool {
        guard count >= sequence.count else { return false }
        for start in 0...(count - sequence.count) where self[start..<start + sequence.count].elementsEqual(sequence) {
            return true
        }
        return false
    }
}
