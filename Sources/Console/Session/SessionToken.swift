import Core

/// A console token: 32 random bytes, sent as 43 base64url characters (the session
/// cookie's value, a sign-in link's `token`, the pre-session form cookie). The store
/// keeps only `hash`; the CSRF token of a form is derived from the token the browser
/// holds, so that it needs no storage and no server secret shared by a fleet.
struct SessionToken: Sendable, Equatable {
    static let byteCount = 32
    static let textCount = 43

    /// The base64url text.
    let text: String

    /// A new token from the system's CSPRNG (`getrandom`).
    static func random() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for i in bytes.indices { bytes[i] = generator.next() }
        return SessionToken(text: Base64URL.encode(bytes))
    }

    /// The token in `text` when it is 43 base64url characters that decode to 32 bytes.
    init?(_ text: String) {
        guard text.utf8.count == Self.textCount, Base64URL.decode(text)?.count == Self.byteCount else { return nil }
        self.text = text
    }

    private init(text: String) { self.text = text }

    /// What the store keeps.
    var hash: [UInt8] { SHA256.hash(text) }

    /// The CSRF token of forms posted with this token as their cookie: a hash of it under
    /// another label, which only the holder of the cookie (or the server, shown it) can
    /// make, and which the store's `hash` does not reveal.
    var csrf: String { Base64URL.encode(SHA256.hash("biqli-console-csrf\u{0}" + text)) }

    /// True when `candidate` is this token's CSRF token, compared in constant time.
    func accepts(csrf candidate: String?) -> Bool {
        guard let candidate else { return false }
        return ConstantTime.equal(Array(candidate.utf8), Array(csrf.utf8))
    }
}

/// Comparisons whose time does not depend on where the inputs differ.
enum ConstantTime {
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
