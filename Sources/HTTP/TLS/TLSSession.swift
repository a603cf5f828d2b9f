import COpenSSL
import CSystem

/// One connection's TLS session on a non-blocking socket, and OpenSSL's rules for
/// driving it, kept in one place:
///
/// - The thread's error queue must be empty before every `SSL_*` I/O call, or
///   `SSL_get_error` reports an error left by another connection on this loop
///   (`SSL_get_error(3)`: "The current thread's error queue must be empty before the
///   TLS/SSL I/O operation is attempted"). A stale entry made a healthy client's
///   `WANT_READ` look fatal, and the edge dropped it whenever some other client had
///   closed without `close_notify`.
/// - After `SSL_ERROR_SYSCALL` or `SSL_ERROR_SSL` the session is dead: no
///   `SSL_shutdown` may follow (`SSL_shutdown(3)`), and the queue is emptied again.
/// - A peer that closes without `close_notify` is an ordinary end of input
///   (`SSL_OP_IGNORE_UNEXPECTED_EOF` on the context): phones do it all the time, and
///   as a fatal error it also removed the session from the cache, so TLS 1.2
///   resumption by session ID failed after every such close.
///
/// Owned by one connection on one loop thread.
final class TLSSession {
    private let ssl: OpaquePointer
    /// Keeps the certificate set whose contexts this session uses alive.
    let certificates: CertificateSet
    private(set) var handshakeComplete = false
    /// A fatal error was reported: the session may not be used or shut down again.
    private(set) var failed = false
    private var sentCloseNotify = false
    /// The SNI name the client asked for, lower-cased; known once the handshake is complete.
    private(set) var serverName: String?
    /// The last handshake step or read stopped at `WANT_WRITE`: it goes on once the
    /// socket is writable, not readable (the loop then reads where it would write).
    private(set) var readWantsWrite = false
    /// The last read returned bytes rather than stopping at `WANT_READ` (the caller's
    /// buffer was full): OpenSSL may still hold input, read ahead or the rest of a record
    /// larger than the room given, that no epoll event will announce once the socket is
    /// empty. See `hasUnannouncedInput`.
    private var readStoppedBeforeWantRead = false

    enum Progress: Equatable {
        /// The handshake finished; `resumed` says whether it reused a session.
        case complete(resumed: Bool)
        case wantRead
        case wantWrite
        case failed
    }

    enum IOResult: Equatable {
        case bytes(Int)
        case wantRead
        case wantWrite
        /// The peer ended its side (`close_notify`, or the socket closed).
        case closed
        case failed
    }

    /// A server session for the accepted socket `fd`, starting with `certificates`'
    /// default context; nil when there is no certificate or OpenSSL refuses.
    init?(fd: Int32, certificates: CertificateSet) {
        guard let ctx = certificates.defaultContext else { return nil }
        ERR_clear_error()
        guard let ssl = SSL_new(ctx.pointer) else {
            ERR_clear_error()
            return nil
        }
        guard SSL_set_fd(ssl, fd) == 1 else {
            ERR_clear_error()
            SSL_free(ssl)
            return nil
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.certificates = certificates
    }

    deinit { SSL_free(ssl) }

    /// Drives the handshake one step.
    func handshake() -> Progress {
        guard !failed else { return .failed }
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        readWantsWrite = false
        if rc == 1 {
            handshakeComplete = true
            if let name = csys_ssl_get_servername(ssl) { serverName = String(cString: name).lowercased() }
            return .complete(resumed: SSL_session_reused(ssl) == 1)
        }
        switch classify(rc) {
        case .wantRead: return .wantRead
        case .wantWrite:
            readWantsWrite = true
            return .wantWrite
        default: return .failed
        }
    }

    /// Decrypts up to `count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> IOResult {
        guard !failed else { return .failed }
        ERR_clear_error()
        let n = SSL_read(ssl, buffer, Int32(clamping: count))
        readStoppedBeforeWantRead = n > 0
        if n > 0 {
            readWantsWrite = false
            return .bytes(Int(n))
        }
        let result = classify(n)
        readWantsWrite = result == .wantWrite
        return result
    }

    /// Encrypts and sends up to `count` bytes of `buffer`.
    func write(from buffer: UnsafeRawPointer, count: Int) -> IOResult {
        guard !failed else { return .failed }
        ERR_clear_error()
        let n = SSL_write(ssl, buffer, Int32(clamping: count))
        return n > 0 ? .bytes(Int(n)) : classify(n)
    }

    /// Sends `close_notify` once, when the session is healthy and established; the
    /// peer's answer is not awaited (the socket closes or lingers next). Marks the
    /// session as cleanly shut down, which keeps it resumable.
    func sendCloseNotify() {
        guard handshakeComplete, !failed, !sentCloseNotify else { return }
        sentCloseNotify = true
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        // A peer that has gone makes the alert's write fail; nothing more to do.
        ERR_clear_error()
    }

    /// No byte of a ClientHello has been processed yet: a silent connection.
    var handshakeStarted: Bool { SSL_in_before(ssl) == 0 }

    /// Input held inside OpenSSL that the loop must read by itself, because no epoll event
    /// will announce it: the last read stopped at a full buffer, not at `WANT_READ`, and
    /// decrypted or read-ahead bytes remain. (After `WANT_READ` the next bytes are the
    /// socket's, which epoll does announce.)
    var hasUnannouncedInput: Bool { readStoppedBeforeWantRead && !failed && SSL_has_pending(ssl) == 1 }

    /// Maps a failed call's return value to what the loop does next, and leaves the
    /// error queue empty.
    private func classify(_ rc: Int32) -> IOResult {
        let error = SSL_get_error(ssl, rc)
        switch error {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            ERR_clear_error()
            return .closed
        default:
            // SSL_ERROR_SYSCALL, SSL_ERROR_SSL and anything unexpected: fatal.
            failed = true
            ERR_clear_error()
            return .failed
        }
    }
}
