import COpenSSL

#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor read or written whole, with the SHA-256 of what passed through
/// (OpenSSL's EVP digest, streamed: a backup's store can be gigabytes; `Core.SHA256`
/// digests values in memory).
final class FileStream {
    let fd: Int32
    let path: String
    private let digest: OpaquePointer?
    private(set) var count: Int64 = 0

    /// Opens `path` for reading.
    init?(reading path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.path = path
        digest = FileStream.newDigest()
    }

    /// Creates `path` (which must not exist) for writing with `mode`, whatever the umask.
    init?(creating path: String, mode: mode_t) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { return nil }
        fchmod(fd, mode)
        self.fd = fd
        self.path = path
        digest = FileStream.newDigest()
    }

    deinit {
        close(fd)
        EVP_MD_CTX_free(digest)
    }

    private static func newDigest() -> OpaquePointer? {
        let ctx = EVP_MD_CTX_new()
        EVP_DigestInit_ex(ctx, EVP_sha256(), nil)
        return ctx
    }

    /// Up to `max` bytes; empty at the end of the file. Nil on an error.
    func read(max: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: max)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        buffer.removeSubrange(n...)
        hash(buffer)
        return buffer
    }

    /// Writes all of `bytes`; false on an error (a full disk).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        if ok { hash(bytes) }
        return ok
    }

    private func hash(_ bytes: [UInt8]) {
        count += Int64(bytes.count)
        _ = bytes.withUnsafeBytes { EVP_DigestUpdate(digest, $0.baseAddress, $0.count) }
    }

    /// Lower-case hex SHA-256 of everything read or written so far (once, at the end).
    func sha256() -> String {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(digest, &out, &length)
        return out.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Flushes to the disk.
    func sync() -> Bool { fsync(fd) == 0 }
}
