import CSodium

/// libsodium's one-time initialisation. A global `let` is initialised lazily and
/// exactly once, so every entry point that needs libsodium reads `Sodium.ready`.
enum Sodium {
    static let ready: Bool = {
        let ok = sodium_init() >= 0
        precondition(ok, "libsodium failed to initialise")
        return ok
    }()

    /// `count` bytes from the operating system's CSPRNG.
    static func randomBytes(_ count: Int) -> [UInt8] {
        _ = ready
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return out
    }
}
