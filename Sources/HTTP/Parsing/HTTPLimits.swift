/// Size limits of one request. Each has a status code and a test.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line (method, target, version). Past it: 414.
    public var maxRequestLineBytes: Int
    /// Longest request head (request line and all header fields). Past it: 431.
    public var maxHeaderBytes: Int
    /// Most header fields. Past it: 431.
    public var maxHeaderCount: Int
    /// Largest request body (after de-chunking). Past it: 413.
    public var maxBodyBytes: Int

    public init(
        maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100,
        maxBodyBytes: Int = 1024 * 1024
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// Why a request was refused by the parser. After any of these the connection is
/// closed: the framing can no longer be trusted.
public enum HTTPParseError: Error, Equatable, Sendable {
    /// Malformed syntax or unsafe framing (400). The string says which rule, for logs.
    case badRequest(String)
    /// Request line longer than `maxRequestLineBytes` (414).
    case uriTooLong
    /// Head longer than `maxHeaderBytes` (431).
    case headersTooLarge
    /// More than `maxHeaderCount` fields (431).
    case tooManyHeaders
    /// Body longer than `maxBodyBytes` (413).
    case bodyTooLarge
    /// A transfer coding other than `chunked` (501).
    case unsupportedTransferCoding
    /// Not HTTP/1.0 or HTTP/1.1 (505).
    case versionNotSupported

    public var status: Int {
        switch self {
        case .badRequest: return 400
        case .uriTooLong: return 414
        case .headersTooLarge, .tooManyHeaders: return 431
        case .bodyTooLarge: return 413
        case .unsupportedTransferCoding: return 501
        case .versionNotSupported: return 505
        }
    }
}
