import Core

/// `X-Biq-Request-Id`: the caller's when it is valid (8-100 safe characters),
/// else a fresh `req_` + 32 lower-case hex, shaped like the SDKs' own.
enum RequestID {
    static func resolve(_ input: ResolveInput) -> String { resolve(HeaderValues(input.request.headers)) }

    static func resolve(_ headers: HeaderValues) -> String {
        if let v = headers.requestId.value, SafeText.isSafeIdentifier(v, min: 8, max: 100) {
            return v
        }
        return generate()
    }

    /// `SecureRandom`, not `SystemRandomNumberGenerator`: that is a `getrandom` system
    /// call for every 8 bytes, two for each request that came without an id.
    static func generate() -> String {
        "req_" + Hex.encode(SecureRandom.bytes(16))
    }
}
