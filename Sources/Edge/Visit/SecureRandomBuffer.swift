import CSodium

/// Bytes from libsodium's CSPRNG, fetched a page at a time: one event loop's source for
/// handoff tokens and CSP nonces.
///
/// `randombytes_buf` is a `getrandom` system call per call (glibc 2.36 has no vDSO
/// `getrandom`), and an iOS visit needs two (token and nonce). Taking them from a
/// 4 KiB page costs one refill (16 `getrandom` calls of 256 bytes) per ~150 visits.
/// The bytes are the kernel's CSPRNG output either way; each byte is handed out once
/// and zeroed in the page as it is taken, so the page never holds a secret already in
/// use. Not thread-safe: one per event loop (`VisitLoops`).
struct SecureRandomBuffer {
    static let pageSize = 4_096
    private var page: [UInt8]
    /// Bytes of `page` before this index were handed out (and zeroed).
    private var used: Int

    init() {
        precondition(sodium_init() >= 0, "libsodium failed to initialise")
        page = [UInt8](repeating: 0, count: SecureRandomBuffer.pageSize)
        used = SecureRandomBuffer.pageSize
    }

    /// `count` fresh random bytes (at most `pageSize`).
    mutating func take(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= SecureRandomBuffer.pageSize, "at most one page at a time")
        if SecureRandomBuffer.pageSize - used < count {
            page.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, $0.count) }
            used = 0
        }
        let start = used
        used += count
        return page.withUnsafeMutableBufferPointer { p in
            let slice = UnsafeMutableBufferPointer(rebasing: p[start..<start + count])
            let out = Array(slice)
            slice.update(repeating: 0)
            return out
        }
    }

    /// Bytes still to be handed out before the next refill (for tests).
    var remaining: Int { SecureRandomBuffer.pageSize - used }
}
