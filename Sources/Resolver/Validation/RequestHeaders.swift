import Model
import Store

/// The SDK headers, validated (`invalid_headers` otherwise).
struct RequestHeaders: Sendable {
    var idempotencyKey: String
    var sdk: Platform
    var sdkVersion: String
    var requestId: String

    /// Checks the four headers the contract requires, in the order the seed's
    /// header table lists them. Content-Type is judged with the body (a body not
    /// declared as JSON is `invalid_request`); Authorization has its own code.
    static func validate(_ h: HeaderValues) throws(ResolverError) -> RequestHeaders {
        guard let key = h.idempotencyKey.value, SafeText.isSafeIdentifier(key, min: 8, max: 100)
        else {
            throw .invalidHeaders("Idempotency-Key must be 8-100 characters of letters, digits, '.', '_', '~' or '-'.")
        }
        guard let sdkText = h.sdk.value, let sdk = Platform(rawValue: sdkText) else {
            throw .invalidHeaders("X-Biq-SDK must be exactly 'ios' or 'android'.")
        }
        if let problem = sdkVersionProblem(h.sdkVersion) { throw .invalidHeaders(problem) }
        let version = h.sdkVersion.value!  // `sdkVersionProblem` is nil only for a value
        guard let rid = h.requestId.value, SafeText.isSafeIdentifier(rid, min: 8, max: 100)
        else {
            throw .invalidHeaders(
                "X-Biq-Request-Id must be 8-100 characters of letters, digits, '.', '_', '~' or '-'.")
        }
        return RequestHeaders(idempotencyKey: key, sdk: sdk, sdkVersion: version, requestId: rid)
    }

    /// What is wrong with an `X-Biq-SDK-Version` value, naming the rule it breaks
    /// (nil when it is fine): present once, not empty, printable ASCII only (no
    /// tab or other control character, nothing beyond ASCII), at most 32
    /// characters. The message never echoes the value.
    static func sdkVersionProblem(_ lookup: HeaderLookup) -> String? {
        let version: String
        switch lookup {
        case .missing: return "X-Biq-SDK-Version is required."
        case .repeated: return "X-Biq-SDK-Version must be sent once."
        case .value(let v): version = v
        }
        // Every request passes here: the usual value is decided by one pass over its bytes.
        if (1...32).contains(version.utf8.count), SafeText.isPrintableASCII(version) { return nil }
        if version.isEmpty { return "X-Biq-SDK-Version must not be empty." }
        if version.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return "X-Biq-SDK-Version must not contain a tab or other control character."
        }
        if !SafeText.isPrintableASCII(version) {
            return "X-Biq-SDK-Version must contain printable ASCII characters only."
        }
        if version.utf8.count > 32 { return "X-Biq-SDK-Version must be at most 32 characters." }
        return nil
    }
}
