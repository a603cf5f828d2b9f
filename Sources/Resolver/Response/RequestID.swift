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

    static func generate() -> String {
        var rng = SystemRandomNumberGenerator()
        let a: UInt64 = rng.next()
        let b: UInt64 = rng.next()
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        for v in [a, b] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
            }
        }
        return "req_" + Hex.encode(bytes)
    }
}
