/// `limit` (default 50, 1...100) and `cursor` (opaque: the last identifier of the
/// previous page) of every list.
struct Pagination: Sendable {
    static let defaultLimit = 50
    static let maxLimit = 100

    var limit: Int
    var cursor: String?

    init(_ query: QueryParameters) throws(ManagementError) {
        limit = try query.integer("limit", in: 1...Pagination.maxLimit, default: Pagination.defaultLimit)
        if let text = query["cursor"] {
            // Counted in characters, as the document's maxLength counts.
            guard !text.isEmpty, text.unicodeScalars.count <= 256 else {
                throw .malformed(
                    FieldProblem(
                        "cursor",
                        "must be the nextCursor of the previous page (1 to 256 characters; omit it for the first)"
                    ))
            }
            cursor = text
        }
    }

    /// The page of `sorted` (ascending by `id`) after the cursor, and the next cursor
    /// when more items follow.
    func page<T>(_ sorted: [T], id: (T) -> String) -> ([T], String?) {
        let after = cursor.map { c in sorted.filter { id($0) > c } } ?? sorted
        let items = Array(after.prefix(limit))
        return (items, after.count > limit ? items.last.map(id) : nil)
    }
}
