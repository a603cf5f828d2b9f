import Core
import Store

/// The stored part of a 200 body: `open`, `click`, `link` and `attribution`, in
/// that order. The receipt and the request ID are appended per answer by
/// `ResponseFactory.success`, which is what lets a replay reuse these bytes.
enum OpenResponseBody {
    /// Room kept for the receipt (about 700 bytes) and the request ID within 64 KiB.
    static let maxStoredBytes = ResponseFactory.maxSuccessBodyBytes - 4_096

    static func render(openId: String, firstOpen: Bool, match: Match?) -> [UInt8] {
        let full = value(openId: openId, firstOpen: firstOpen, match: match, trimmed: false)
        let bytes = full.jsonBytes
        if bytes.count <= maxStoredBytes { return bytes }
        // Only metadata stored before its 4 KB rule existed could get here;
        // an empty object keeps the response valid instead of failing the open.
        return value(openId: openId, firstOpen: firstOpen, match: match, trimmed: true).jsonBytes
    }

    static func value(openId: String, firstOpen: Bool, match: Match?, trimmed: Bool) -> JSONValue {
        let matchedBy = match?.matchedBy ?? .none
        let open: JSONValue = .object([
            ("id", .string(openId)),
            ("firstOpen", .bool(firstOpen)),
            ("matchedBy", .string(matchedBy.rawValue)),
            ("confidence", .string(matchedBy.confidence.rawValue)),
        ])
        guard let match else {
            return .object([("open", open), ("click", .null), ("link", .null), ("attribution", .null)])
        }
        let click: JSONValue = match.clickId.map { .object([("id", .string($0))]) } ?? .null
        let link: JSONValue = .object([
            ("id", .string(match.linkId)), ("shortUrl", .string(match.shortUrl)), ("route", .string(match.route)),
        ])
        var metadata: JSONValue = .object([])
        if !trimmed, case .object = match.metadata { metadata = match.metadata }
        var dynamic: [(String, JSONValue)] = []
        if !trimmed {
            for (k, v) in match.dynamic where !dynamic.contains(where: { $0.0 == k }) {
                dynamic.append((k, .string(v)))
                if dynamic.count == DynamicValues.maxCount { break }
            }
        }
        let attribution: JSONValue = .object([
            ("referralCode", .string(orNull: match.referralCode)), ("metadata", metadata),
            ("dynamic", .object(dynamic)),
        ])
        return .object([("open", open), ("click", click), ("link", link), ("attribution", attribution)])
    }
}
