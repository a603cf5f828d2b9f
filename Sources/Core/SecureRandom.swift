import CSystem

/// Secret random bytes for the hot paths (handoff tokens, CSP nonces, request ids): the
/// kernel's CSPRNG through a pool per thread (`csys_random_bytes`), so a visit costs a
/// copy instead of a system call. libsodium's and OpenSSL's generators check the process
/// id on every call (`getpid`, their fork check), one system call per Android visit.
/// Bytes handed out are wiped from the pool; a fork empties it.
public enum SecureRandom {
    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        // getrandom(2) fails only on kernels older than 3.17 or under a seccomp filter
        // that forbids it: no secret can be made then, so nothing can be served.
        precondition(csys_random_bytes(base, buffer.count) == 0, "getrandom failed")
    }

    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            fill(UnsafeMutableRawBufferPointer(out))
            initialized = count
        }
    }
}
