import Core
import HTTPMessages

/// The body of a write: empty, or one JSON object within the limits below. Anything
/// else is 400 `validation_error` naming `body`.
///
/// The body is read as JSON whatever its `Content-Type` says, so that `curl -d '{...}'`
/// (which labels it form-encoded) works; no cross-site form can reach these routes
/// anyway, since every one of them needs the `Authorization` header.
enum RequestBody {
    /// Largest accepted body. A link with full metadata and preview is about 6 KB.
    static let maxBytes = 65_536
    /// Deepest accepted nesting (a link body needs 5: link, mobile, metadata and its 3 levels).
    static let maxDepth = 16
    /// Most values accepted (every member's value and array item, nested ones included).
    /// What a body costs to parse and to check is its values, not its bytes: 64 KiB of
    /// `[[[0]]]` or of distinct keys is some 30,000 of them, 3 ms of an event loop; the
    /// largest body a client has reason to send (a link with 4 KB of metadata, an app
    /// with 100 domains) holds about 2,000 (issue 33).
    static let maxValues = 4_096

    /// What a create or an update without a body is told.
    static let missing = FieldProblem("body", "is required: a JSON object (on a PATCH, {} changes nothing)")

    /// The object's members, or nil for an empty body.
    static func parse(_ request: HTTPRequest) throws(ManagementError) -> [(String, JSONValue)]? {
        let body = request.body
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return nil }
        if body.count > maxBytes {
            throw .malformed(FieldProblem("body", "must be at most \(maxBytes) bytes"))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(
                body, options: .init(maxDepth: maxDepth, maxBytes: maxBytes, maxValues: maxValues))
        } catch {
            throw .malformed(FieldProblem("body", rule(error)))
        }
        guard case .object(let members) = value else {
            throw .malformed(FieldProblem("body", "must be a JSON object"))
        }
        return members
    }

    static func rule(_ error: JSONParseError) -> String {
        switch error {
        case .syntax(let offset): return "must be valid JSON (syntax error at byte \(offset))"
        case .tooDeep(let limit): return "must nest at most \(limit) levels"
        case .tooLarge(let limit): return "must be at most \(limit) bytes"
        case .duplicateKey(let key): return "must not repeat the key \"\(key)\" in one object"
        case .invalidUTF8: return "must be UTF-8"
        case .tooManyValues(let limit): return "must hold at most \(limit) JSON values (members and array items)"
        }
    }
}
