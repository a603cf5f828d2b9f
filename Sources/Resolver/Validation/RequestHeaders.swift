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
        guard let version = h.sdkVersion.value, SafeText.isNonEmpty(version, within: 32),
            SafeText.isPrintableASCII(version)
        else {
            throw .invalidHeaders("X-Biq-SDK-Version must be a non-empty string of at most 32 characters.")
        }
        guard let rid = h.requestId.value, SafeText.isSafeIdentifier(rid, min: 8, max: 100)
        else {
            throw .invalidHeaders(
                "X-Biq-Request-Id must be 8-100 characters of letters, digits, '.', '_', '~' or '-'.")
        }
        return RequestHeaders(idempotencyKey: key, sdk: sdk, sdkVersion: version, requestId: rid)
    }
}
